-- Every payout any desk of the team released (decision 149), as reconciliation matches it: the
-- run's row, its currency and the run's mode, when it was first sent, its result and the fee the
-- service reported for it as the releasing desk recorded it (decision 150; null when none was). A
-- payout the service refused outright never reached it and is left out. To members only.
CREATE OR REPLACE VIEW payout_desk.team_recon_payouts WITH (security_barrier) AS
  SELECT i.item_reference AS reference, i.run_id, r.amount::text AS amount, v.currency, run.mode, i.outcome,
         payout_desk.iso(coalesce(i.first_sent_at, i.claimed_at, i.outcome_at)) AS sent_at,
         coalesce(i.first_sent_at, i.claimed_at, i.outcome_at) AS sent_time, r.customer_name,
         c.holder AS released_by, d.label AS desk_label, i.fee::text AS fee
  FROM payout_desk.claim_items i
  JOIN payout_desk.run_rows r ON r.run_id = i.run_id AND r.version = i.version AND r.position = i.position
  JOIN payout_desk.run_versions v ON v.run_id = i.run_id AND v.version = i.version
  JOIN payout_desk.runs run ON run.run_id = i.run_id
  JOIN payout_desk.claims c ON c.reference = i.claim_reference
  LEFT JOIN payout_desk.desks d ON d.desk_id = c.holder_desk
  WHERE i.outcome IS NOT NULL AND i.outcome <> 'refused' AND payout_desk.is_member();
