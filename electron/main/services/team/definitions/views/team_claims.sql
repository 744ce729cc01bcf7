-- The claims of every run: holder, lease, payouts, to members only.
CREATE OR REPLACE VIEW payout_desk.team_claims WITH (security_barrier) AS
  SELECT c.reference, c.kind, c.run_id, c.version, c.state, c.holder, c.holder_desk,
         payout_desk.iso(c.claimed_at) AS claimed_at, payout_desk.iso(c.lease_until) AS lease_until,
         c.lease_until <= now() AS lease_expired, c.takeovers,
         (SELECT count(*) FROM payout_desk.claim_items i WHERE i.claim_reference = c.reference)::integer AS payouts,
         (SELECT coalesce(jsonb_agg(i.item_reference ORDER BY i.position), '[]'::jsonb)
            FROM payout_desk.claim_items i WHERE i.claim_reference = c.reference) AS payout_references
  FROM payout_desk.claims c
  WHERE payout_desk.is_member();
