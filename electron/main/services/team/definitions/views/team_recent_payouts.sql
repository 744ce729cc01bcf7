-- The team's recent payouts: each payout with a result, the run, and the desk that released it by
-- its label. Columns are only ever added at the end (CREATE OR REPLACE VIEW keeps the others).
CREATE OR REPLACE VIEW payout_desk.team_recent_payouts WITH (security_barrier) AS
  SELECT i.item_reference AS reference, i.run_id, run.label AS run_label, r.amount::text AS amount, v.currency,
         r.bank_code, r.account_number, r.customer_name, i.outcome, payout_desk.iso(i.outcome_at) AS outcome_at,
         i.outcome_at AS outcome_time, i.message, c.holder AS released_by, c.holder_desk AS desk_id,
         d.label AS desk_label
  FROM payout_desk.claim_items i
  JOIN payout_desk.run_rows r ON r.run_id = i.run_id AND r.version = i.version AND r.position = i.position
  JOIN payout_desk.run_versions v ON v.run_id = i.run_id AND v.version = i.version
  JOIN payout_desk.runs run ON run.run_id = i.run_id
  JOIN payout_desk.claims c ON c.reference = i.claim_reference
  LEFT JOIN payout_desk.desks d ON d.desk_id = c.holder_desk
  WHERE i.outcome IS NOT NULL AND payout_desk.is_member();
