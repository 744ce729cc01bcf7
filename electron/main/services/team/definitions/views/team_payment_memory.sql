-- "Already paid": every payout a desk of the team sent (or may have: unknown), with what the
-- desk's already-paid check compares (shared/bulk/journal-match.ts) and the mode the run paid in:
-- a desk reads only its own mode's memory (decision 61). Columns are only ever added at the end.
CREATE OR REPLACE VIEW payout_desk.team_payment_memory WITH (security_barrier) AS
  SELECT i.item_reference AS reference, r.bank_code, r.account_number, r.amount::text AS amount,
         payout_desk.iso(i.first_sent_at) AS sent_at, i.first_sent_at, run.label AS run_label, i.run_id, i.outcome,
         run.mode
  FROM payout_desk.claim_items i
  JOIN payout_desk.run_rows r ON r.run_id = i.run_id AND r.version = i.version AND r.position = i.position
  JOIN payout_desk.runs run ON run.run_id = i.run_id
  WHERE i.first_sent_at IS NOT NULL AND i.outcome IN ('sent', 'accepted', 'unknown', 'paid')
    AND payout_desk.is_member();
