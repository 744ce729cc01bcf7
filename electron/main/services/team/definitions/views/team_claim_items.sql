-- Each claimed payout and its result, to members only.
CREATE OR REPLACE VIEW payout_desk.team_claim_items WITH (security_barrier) AS
  SELECT i.item_reference, i.claim_reference, i.run_id, i.version, i.position, i.outcome,
         payout_desk.iso(i.outcome_at) AS outcome_at, i.message
  FROM payout_desk.claim_items i
  WHERE payout_desk.is_member();
