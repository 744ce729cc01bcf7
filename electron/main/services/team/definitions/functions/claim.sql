-- Claims a batch (or single payout) reference of an approved run before its request leaves
-- (decisions 38, 41): the claim is committed in the same transaction that locks the run and checks
-- that nobody else holds it or any of its payouts. The same desk asking again renews it; after its
-- lease ran out another approver's desk takes it over as it was, and must verify by reference
-- before sending anything (mustVerifyFirst). A claim whose payouts all have a final result is
-- refused (claim_final): nothing is left to send.
-- Each payout is looked up by (run, version, reference); the first claim of a release gathers the
-- statistics of the runs' rows unless they were gathered after this version was approved, and
-- never waits for another release's ANALYZE (decisions 43, 45). The desk and the run must be in
-- one mode (trigger claims_in_run_mode, decision 61). A member's first claim in a run is checked
-- against the team's limits for the rest of the run (release_within_limits, decision 138).
CREATE OR REPLACE FUNCTION payout_desk.claim(p_run_id text, p_version integer, p_hash text, p_reference text, p_kind text,
    p_items text[], p_desk text, p_lease_seconds integer)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('approver', p_desk);
  run payout_desk.runs;
  existing payout_desk.claims;
  lease interval;
  stranger text;
  taken record;
BEGIN
  lease := payout_desk.lease_of(p_lease_seconds);
  IF p_kind IS NULL OR p_kind NOT IN ('batch', 'payout') THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A claim is on a batch or on a payout.');
  END IF;
  IF p_reference IS NULL OR length(p_reference) NOT BETWEEN 1 AND 100 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A claim''s reference is 1 to 100 characters.');
  END IF;
  IF p_items IS NULL OR cardinality(p_items) NOT BETWEEN 1 AND 1000 OR array_position(p_items, NULL) IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A claim covers 1 to 1000 payout references.');
  END IF;
  IF p_kind = 'payout' AND cardinality(p_items) <> 1 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A claim on a payout covers that one payout.');
  END IF;
  IF (SELECT count(DISTINCT x) FROM unnest(p_items) x) <> cardinality(p_items) THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A claim names a payout reference twice.');
  END IF;

  run := payout_desk.releasable_run(p_run_id, p_version, p_hash);
  -- The first claim of a run's release gathers the statistics of the runs' rows unless they were
  -- gathered after this version was approved (its rows were written before), and never waits
  -- for another release's ANALYZE (whose sample already holds these rows).
  IF run.state = 'approved' AND NOT payout_desk.run_rows_analysed_since(p_run_id, p_version) THEN
    ANALYZE (SKIP_LOCKED) payout_desk.run_rows;
  END IF;
  -- One index lookup per payout (run, version, reference).
  SELECT x INTO stranger FROM unnest(p_items) WITH ORDINALITY AS u(x, ord)
    WHERE (SELECT r.position FROM payout_desk.run_rows r
           WHERE r.run_id = p_run_id AND r.version = p_version AND r.reference = u.x) IS NULL
    ORDER BY u.ord LIMIT 1;
  IF stranger IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'not_in_run', format('%s is not a payout of run %s version %s.', stranger, p_run_id, p_version));
  END IF;

  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference FOR UPDATE;
  IF existing.reference IS NOT NULL AND existing.state <> 'released' THEN
    IF existing.run_id <> p_run_id OR existing.version <> p_version THEN
      PERFORM payout_desk.fail('PT409', 'claim_other_run', format('%s is already claimed for run %s.', p_reference, existing.run_id));
    END IF;
    IF (SELECT array_agg(i.item_reference ORDER BY i.item_reference) FROM payout_desk.claim_items i
        WHERE i.claim_reference = p_reference)
       IS DISTINCT FROM (SELECT array_agg(x ORDER BY x) FROM unnest(p_items) x) THEN
      PERFORM payout_desk.fail('PT409', 'claim_payouts_differ', format(
        'The claim %s covers other payouts than these: take it over as it was (the team''s claims list its payouts).',
        p_reference));
    END IF;
    IF existing.state = 'done' THEN
      PERFORM payout_desk.fail('PT409', 'claim_final', format('Every payout of %s has a final result: nothing is left to send.',
        p_reference));
    END IF;
    IF existing.holder_desk = p_desk THEN
      UPDATE payout_desk.claims SET lease_until = now() + lease WHERE reference = p_reference;
      RETURN payout_desk.claim_answer(p_reference, 'renewed', NULL);
    END IF;
    IF existing.lease_until > now() THEN
      PERFORM payout_desk.fail('PT423', 'claim_held', format('%s is claimed by %s on desk %s until %s.', p_reference,
        existing.holder, existing.holder_desk, payout_desk.iso(existing.lease_until)));
    END IF;
    -- The lease ran out: this desk takes the claim over, and must verify by reference first.
    UPDATE payout_desk.claims
      SET holder = me, holder_desk = p_desk, claimed_at = now(), lease_until = now() + lease, takeovers = takeovers + 1
      WHERE reference = p_reference;
    INSERT INTO payout_desk.claim_holders (claim_reference, holder, holder_desk) VALUES (p_reference, me, p_desk)
      ON CONFLICT (claim_reference, holder_desk) DO NOTHING;
    PERFORM payout_desk.append_audit('claim_taken_over', p_run_id, p_reference, jsonb_build_object(
      'version', p_version, 'previousHolder', existing.holder, 'previousDesk', existing.holder_desk,
      'leaseExpiredAt', payout_desk.iso(existing.lease_until), 'payouts', cardinality(p_items)), p_desk);
    RETURN payout_desk.claim_answer(p_reference, 'takeover', jsonb_build_object(
      'holder', existing.holder, 'deskId', existing.holder_desk, 'leaseUntil', payout_desk.iso(existing.lease_until)));
  END IF;

  -- A new claim: none of its payouts may be in any other claim, in this run or another.
  SELECT x AS item, i.claim_reference INTO taken FROM unnest(p_items) x
    JOIN payout_desk.claim_items i ON i.item_reference = x LIMIT 1;
  IF taken.item IS NOT NULL THEN
    PERFORM payout_desk.fail('PT409', 'payout_claimed', format('The payout %s is already claimed in %s.', taken.item, taken.claim_reference));
  END IF;
  -- The member's first claim in this run: the rest of the run within the team's limits (decision 138).
  IF NOT EXISTS (SELECT 1 FROM payout_desk.claims c JOIN payout_desk.claim_holders h ON h.claim_reference = c.reference
                 WHERE c.run_id = p_run_id AND c.version = p_version AND h.holder = me) THEN
    PERFORM payout_desk.release_within_limits(me, p_run_id, p_version);
  END IF;
  IF existing.reference IS NULL THEN
    INSERT INTO payout_desk.claims (reference, kind, run_id, version, state, holder, holder_desk, claimed_at, lease_until)
      VALUES (p_reference, p_kind, p_run_id, p_version, 'held', me, p_desk, now(), now() + lease);
  ELSE
    UPDATE payout_desk.claims
      SET kind = p_kind, state = 'held', holder = me, holder_desk = p_desk, claimed_at = now(), lease_until = now() + lease
      WHERE reference = p_reference;
  END IF;
  INSERT INTO payout_desk.claim_items (item_reference, claim_reference, run_id, version, position, claimed_by, claimed_at)
    SELECT x, p_reference, p_run_id, p_version,
      (SELECT r.position FROM payout_desk.run_rows r
       WHERE r.run_id = p_run_id AND r.version = p_version AND r.reference = x),
      me, now()
    FROM unnest(p_items) x;
  INSERT INTO payout_desk.claim_holders (claim_reference, holder, holder_desk) VALUES (p_reference, me, p_desk)
    ON CONFLICT (claim_reference, holder_desk) DO NOTHING;
  IF run.state = 'approved' THEN
    UPDATE payout_desk.runs SET state = 'releasing', updated_at = now() WHERE run_id = p_run_id;
  END IF;
  PERFORM payout_desk.append_audit('claim_taken', p_run_id, p_reference, jsonb_build_object(
    'version', p_version, 'kind', p_kind, 'payouts', to_jsonb(p_items), 'leaseSeconds', p_lease_seconds), p_desk);
  RETURN payout_desk.claim_answer(p_reference, 'new', NULL);
END
$$;
