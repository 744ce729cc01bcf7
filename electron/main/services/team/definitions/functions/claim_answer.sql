-- What a desk is told about a claim it asked for or holds.
CREATE OR REPLACE FUNCTION payout_desk.claim_answer(p_reference text, p_grant text, p_previous jsonb) RETURNS jsonb
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT jsonb_build_object(
    'grant', p_grant, 'reference', c.reference, 'kind', c.kind, 'runId', c.run_id, 'version', c.version,
    'state', c.state, 'holder', c.holder, 'deskId', c.holder_desk, 'claimedAt', payout_desk.iso(c.claimed_at),
    'leaseUntil', payout_desk.iso(c.lease_until), 'takeovers', c.takeovers,
    'items', coalesce((SELECT jsonb_agg(jsonb_build_object('reference', i.item_reference, 'position', i.position,
        'outcome', i.outcome) ORDER BY i.position)
      FROM payout_desk.claim_items i WHERE i.claim_reference = c.reference), '[]'::jsonb),
    'previous', p_previous,
    -- A takeover, or a claim some of whose payouts already have a result: verify by reference first.
    'mustVerifyFirst', p_grant = 'takeover'
      OR EXISTS (SELECT 1 FROM payout_desk.claim_items i WHERE i.claim_reference = c.reference AND i.outcome IS NOT NULL))
  FROM payout_desk.claims c WHERE c.reference = p_reference
$$;
