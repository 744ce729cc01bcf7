-- 004: claims ahead, several in one transaction. A releasing desk claims the next batches of its
-- run before their turn; asking for each in its own transaction made one commit per batch, and
-- every commit appends to the team's single audit chain (one head row, locked until commit), so
-- with several desks releasing at once the claim commits set the pace. claim_batches claims
-- several batch references of ONE run in one transaction, under the same rule as claim: each
-- claim is committed in the transaction that checks nobody else holds it, before its batch leaves.
--
-- Semantics (all-or-each):
-- * ALL: what concerns the run — the caller's role and desk, the lease, the run approved at this
--   version with this content hash — is checked once, first; any failure refuses the whole call
--   and nothing is claimed.
-- * EACH: every claim is then made by payout_desk.claim itself (the same checks, the same audit
--   entry: one hash-chained entry per batch claimed or taken over), in its own subtransaction. A
--   claim refused (held by another desk, a payout claimed elsewhere, nothing left to send, not a
--   payout of the run) is answered as refused with its code and text; the others are still made.
-- The answer lists every reference in the order asked: {reference, claim} or {reference, refused}.

-- The run a claim is made on, locked to commit: approved at this version, and the content the
-- releasing desk recomputed the hash of (what it is about to send) is what was approved.
CREATE FUNCTION payout_desk.releasable_run(p_run_id text, p_version integer, p_hash text)
  RETURNS payout_desk.runs
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  run payout_desk.runs;
  version_row payout_desk.run_versions;
BEGIN
  run := payout_desk.lock_run(p_run_id);
  IF run.state NOT IN ('approved', 'releasing') THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s: only an approved run is released.', p_run_id,
      replace(run.state, '_', ' ')));
  END IF;
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s version %s is approved, not version %s.', p_run_id,
      run.current_version, p_version));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  IF version_row.approved_at IS NULL THEN
    PERFORM payout_desk.fail('PT409', format('Run %s version %s is not approved.', p_run_id, p_version));
  END IF;
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash,
    format('Run %s version %s as approved', p_run_id, p_version));
  RETURN run;
END
$$;

-- claim, as 003 made it, with the run's payouts looked up one by one by (run, version, reference),
-- and the statistics of the runs' rows gathered at the first claim of a release: with a run just
-- written and not yet analysed, the planner took its 4,000 rows for one and walked the run from
-- its first row for every payout, so a claim cost more the further into the run its batch was
-- (2 ms for the first batches, 15 ms and more by the 40th, on a quiet machine). Same checks, same
-- answers, same audit entry.
CREATE OR REPLACE FUNCTION payout_desk.claim(p_run_id text, p_version integer, p_hash text, p_reference text, p_kind text,
    p_items text[], p_desk text, p_lease_seconds integer)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  run payout_desk.runs;
  existing payout_desk.claims;
  lease interval;
  stranger text;
  taken record;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  IF p_lease_seconds IS NULL OR p_lease_seconds NOT BETWEEN 1 AND 3600 THEN
    PERFORM payout_desk.fail('PT400', 'A lease is 1 to 3600 seconds.');
  END IF;
  lease := make_interval(secs => p_lease_seconds);
  IF p_kind IS NULL OR p_kind NOT IN ('batch', 'payout') THEN
    PERFORM payout_desk.fail('PT400', 'A claim is on a batch or on a payout.');
  END IF;
  IF p_reference IS NULL OR length(p_reference) NOT BETWEEN 1 AND 100 THEN
    PERFORM payout_desk.fail('PT400', 'A claim''s reference is 1 to 100 characters.');
  END IF;
  IF p_items IS NULL OR cardinality(p_items) NOT BETWEEN 1 AND 1000 OR array_position(p_items, NULL) IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'A claim covers 1 to 1000 payout references.');
  END IF;
  IF p_kind = 'payout' AND cardinality(p_items) <> 1 THEN
    PERFORM payout_desk.fail('PT400', 'A claim on a payout covers that one payout.');
  END IF;
  IF (SELECT count(DISTINCT x) FROM unnest(p_items) x) <> cardinality(p_items) THEN
    PERFORM payout_desk.fail('PT400', 'A claim names a payout reference twice.');
  END IF;

  run := payout_desk.releasable_run(p_run_id, p_version, p_hash);
  -- The first claim of a run's release gathers the statistics of the runs' rows: a run written just
  -- before (4,000 rows, say) is otherwise taken for one row, and the lookups below walk the run
  -- from its first row instead of using (run, version, reference): each claim then costs more the
  -- further into the run its batch is (a ShareUpdateExclusive lock: writers are not held up).
  IF run.state = 'approved' THEN
    ANALYZE payout_desk.run_rows;
  END IF;
  -- One index lookup per payout (run, version, reference).
  SELECT x INTO stranger FROM unnest(p_items) WITH ORDINALITY AS u(x, ord)
    WHERE (SELECT r.position FROM payout_desk.run_rows r
           WHERE r.run_id = p_run_id AND r.version = p_version AND r.reference = u.x) IS NULL
    ORDER BY u.ord LIMIT 1;
  IF stranger IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', format('%s is not a payout of run %s version %s.', stranger, p_run_id, p_version));
  END IF;

  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference FOR UPDATE;
  IF existing.reference IS NOT NULL AND existing.state <> 'released' THEN
    IF existing.run_id <> p_run_id OR existing.version <> p_version THEN
      PERFORM payout_desk.fail('PT409', format('%s is already claimed for run %s.', p_reference, existing.run_id));
    END IF;
    IF (SELECT array_agg(i.item_reference ORDER BY i.item_reference) FROM payout_desk.claim_items i
        WHERE i.claim_reference = p_reference)
       IS DISTINCT FROM (SELECT array_agg(x ORDER BY x) FROM unnest(p_items) x) THEN
      PERFORM payout_desk.fail('PT409', format(
        'The claim %s covers other payouts than these: take it over as it was (the team''s claims list its payouts).',
        p_reference));
    END IF;
    IF existing.state = 'done' THEN
      PERFORM payout_desk.fail('PT409', format('Every payout of %s has a final result: nothing is left to send.',
        p_reference));
    END IF;
    IF existing.holder_desk = p_desk THEN
      UPDATE payout_desk.claims SET lease_until = now() + lease WHERE reference = p_reference;
      RETURN payout_desk.claim_answer(p_reference, 'renewed', NULL);
    END IF;
    IF existing.lease_until > now() THEN
      PERFORM payout_desk.fail('PT423', format('%s is claimed by %s on desk %s until %s.', p_reference,
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
    PERFORM payout_desk.fail('PT409', format('The payout %s is already claimed in %s.', taken.item, taken.claim_reference));
  END IF;
  IF existing.reference IS NULL THEN
    INSERT INTO payout_desk.claims (reference, kind, run_id, version, state, holder, holder_desk, claimed_at, lease_until)
      VALUES (p_reference, p_kind, p_run_id, p_version, 'held', me, p_desk, now(), now() + lease);
  ELSE
    UPDATE payout_desk.claims
      SET kind = p_kind, state = 'held', holder = me, holder_desk = p_desk, claimed_at = now(), lease_until = now() + lease
      WHERE reference = p_reference;
  END IF;
  INSERT INTO payout_desk.claim_items (item_reference, claim_reference, run_id, version, position)
    SELECT x, p_reference, p_run_id, p_version,
      (SELECT r.position FROM payout_desk.run_rows r
       WHERE r.run_id = p_run_id AND r.version = p_version AND r.reference = x)
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

CREATE FUNCTION payout_desk.claim_batches(p_run_id text, p_version integer, p_hash text, p_claims jsonb,
    p_desk text, p_lease_seconds integer)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  run payout_desk.runs;
  entry jsonb;
  reference text;
  items text[];
  answers jsonb := '[]'::jsonb;
  refused_code text;
  refused_text text;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  IF p_lease_seconds IS NULL OR p_lease_seconds NOT BETWEEN 1 AND 3600 THEN
    PERFORM payout_desk.fail('PT400', 'A lease is 1 to 3600 seconds.');
  END IF;
  IF jsonb_typeof(p_claims) IS DISTINCT FROM 'array' OR jsonb_array_length(p_claims) NOT BETWEEN 1 AND 32 THEN
    PERFORM payout_desk.fail('PT400', 'Claims are a list of 1 to 32 {reference, payouts}.');
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_claims) e
             WHERE jsonb_typeof(e.value) IS DISTINCT FROM 'object'
                OR jsonb_typeof(e.value -> 'reference') IS DISTINCT FROM 'string'
                OR jsonb_typeof(e.value -> 'payouts') IS DISTINCT FROM 'array') THEN
    PERFORM payout_desk.fail('PT400', 'Each claim is {reference: text, payouts: [text]}.');
  END IF;
  IF (SELECT count(DISTINCT e.value ->> 'reference') FROM jsonb_array_elements(p_claims) e)
     <> jsonb_array_length(p_claims) THEN
    PERFORM payout_desk.fail('PT400', 'A batch reference is named twice in one list of claims.');
  END IF;

  -- ALL: the run, once (its lock is held to commit, so each claim below finds it as checked here).
  run := payout_desk.releasable_run(p_run_id, p_version, p_hash);

  -- EACH: every claim as payout_desk.claim makes it, refused on its own.
  FOR entry IN SELECT e.value FROM jsonb_array_elements(p_claims) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord LOOP
    reference := entry ->> 'reference';
    items := ARRAY(SELECT jsonb_array_elements_text(entry -> 'payouts'));
    BEGIN
      answers := answers || jsonb_build_array(jsonb_build_object('reference', reference,
        'claim', payout_desk.claim(p_run_id, p_version, p_hash, reference, 'batch', items, p_desk, p_lease_seconds)));
    EXCEPTION WHEN SQLSTATE 'PT400' OR SQLSTATE 'PT409' OR SQLSTATE 'PT423' THEN
      GET STACKED DIAGNOSTICS refused_code = RETURNED_SQLSTATE, refused_text = MESSAGE_TEXT;
      answers := answers || jsonb_build_array(jsonb_build_object('reference', reference,
        'refused', jsonb_build_object('sqlstate', refused_code, 'message', refused_text)));
    END;
  END LOOP;
  RETURN answers;
END
$$;

REVOKE ALL ON FUNCTION payout_desk.claim_batches(text, integer, text, jsonb, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION payout_desk.claim_batches(text, integer, text, jsonb, text, integer) TO payout_desk_approver;
