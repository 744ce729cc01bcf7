-- 003: release. A desk claims a batch (or single payout) reference of an approved run before its
-- request leaves: the claim is committed in the same transaction that checks nobody else holds it
-- or any of its payouts. Leases expire; another approver's desk may then take the claim over (and
-- must verify by reference before sending anything). Results of each payout are recorded; the
-- team's payment memory and recent payouts are read from them.

-- What a desk is told about a claim it asked for or holds.
CREATE FUNCTION payout_desk.claim_answer(p_reference text, p_grant text, p_previous jsonb) RETURNS jsonb
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

CREATE FUNCTION payout_desk.claim(p_run_id text, p_version integer, p_hash text, p_reference text, p_kind text,
    p_items text[], p_desk text, p_lease_seconds integer)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  run payout_desk.runs;
  version_row payout_desk.run_versions;
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
  -- The releasing desk recomputed the hash of what it is about to send: it must be what was approved.
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash,
    format('Run %s version %s as approved', p_run_id, p_version));
  SELECT x INTO stranger FROM unnest(p_items) x
    WHERE NOT EXISTS (SELECT 1 FROM payout_desk.run_rows r
                      WHERE r.run_id = p_run_id AND r.version = p_version AND r.reference = x)
    LIMIT 1;
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
    SELECT r.reference, p_reference, p_run_id, p_version, r.position
    FROM payout_desk.run_rows r
    WHERE r.run_id = p_run_id AND r.version = p_version AND r.reference = ANY (p_items);
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

-- Extends the lease of a claim this desk holds (while it sends and verifies).
CREATE FUNCTION payout_desk.renew_claim(p_reference text, p_desk text, p_lease_seconds integer) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  existing payout_desk.claims;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  IF p_lease_seconds IS NULL OR p_lease_seconds NOT BETWEEN 1 AND 3600 THEN
    PERFORM payout_desk.fail('PT400', 'A lease is 1 to 3600 seconds.');
  END IF;
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference FOR UPDATE;
  IF existing.reference IS NULL OR existing.state = 'released' THEN
    PERFORM payout_desk.fail('PT404', format('There is no claim on %s.', coalesce(p_reference, '(none)')));
  END IF;
  IF existing.holder_desk <> p_desk THEN
    PERFORM payout_desk.fail('PT423', format('%s was taken over by %s on desk %s.', p_reference, existing.holder,
      existing.holder_desk));
  END IF;
  IF existing.state = 'held' THEN
    UPDATE payout_desk.claims SET lease_until = now() + make_interval(secs => p_lease_seconds)
      WHERE reference = p_reference;
  END IF;
  RETURN payout_desk.claim_answer(p_reference, 'renewed', NULL);
END
$$;

-- Gives a claim back when nothing of it was sent (its payouts may then be claimed again).
CREATE FUNCTION payout_desk.release_claim(p_reference text, p_desk text, p_reason text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  existing payout_desk.claims;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference;
  IF existing.reference IS NULL THEN
    PERFORM payout_desk.fail('PT404', format('There is no claim on %s.', coalesce(p_reference, '(none)')));
  END IF;
  PERFORM payout_desk.lock_run(existing.run_id);
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference FOR UPDATE;
  IF existing.state = 'released' THEN
    RETURN jsonb_build_object('reference', p_reference, 'state', 'released');
  END IF;
  IF existing.holder_desk <> p_desk OR existing.state <> 'held' THEN
    PERFORM payout_desk.fail('PT423', format('%s is not held by this desk.', p_reference));
  END IF;
  IF EXISTS (SELECT 1 FROM payout_desk.claim_items WHERE claim_reference = p_reference AND outcome IS NOT NULL) THEN
    PERFORM payout_desk.fail('PT409', format('Something of %s was sent: record its results; it cannot be given back.',
      p_reference));
  END IF;
  DELETE FROM payout_desk.claim_items WHERE claim_reference = p_reference;
  UPDATE payout_desk.claims SET state = 'released' WHERE reference = p_reference;
  IF NOT EXISTS (SELECT 1 FROM payout_desk.claims WHERE run_id = existing.run_id AND state <> 'released') THEN
    UPDATE payout_desk.runs SET state = 'approved', updated_at = now() WHERE run_id = existing.run_id AND state = 'releasing';
  END IF;
  PERFORM payout_desk.append_audit('claim_released', existing.run_id, p_reference, jsonb_build_object(
    'reason', left(coalesce(p_reason, ''), 300)), p_desk);
  RETURN jsonb_build_object('reference', p_reference, 'state', 'released');
END
$$;

-- The list of results a desk sends, as rows.
CREATE FUNCTION payout_desk.results_of(p_results jsonb)
  RETURNS TABLE (ord bigint, reference text, outcome text, message text)
  LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT e.ord, e.value ->> 'reference', e.value ->> 'outcome', left(e.value ->> 'message', 300)
  FROM jsonb_array_elements(p_results) WITH ORDINALITY AS e(value, ord)
$$;

-- Records what became of payouts of a claim. The desk holding it may record, and so may a desk
-- that held it before (what it sent stays its own to verify). A final result (paid, failed,
-- refused) never changes; the same result again changes nothing.
CREATE FUNCTION payout_desk.record_results(p_reference text, p_desk text, p_results jsonb) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
  existing payout_desk.claims;
  bad record;
  changed jsonb;
  run payout_desk.runs;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference;
  IF existing.reference IS NULL OR existing.state = 'released' THEN
    PERFORM payout_desk.fail('PT404', format('There is no claim on %s.', coalesce(p_reference, '(none)')));
  END IF;
  run := payout_desk.lock_run(existing.run_id);
  IF NOT EXISTS (SELECT 1 FROM payout_desk.claim_holders WHERE claim_reference = p_reference AND holder_desk = p_desk) THEN
    PERFORM payout_desk.fail('PT403', format('Desk %s never held %s, so it records no result of it.', p_desk, p_reference));
  END IF;
  IF jsonb_typeof(p_results) IS DISTINCT FROM 'array' OR jsonb_array_length(p_results) NOT BETWEEN 1 AND 1000 THEN
    PERFORM payout_desk.fail('PT400', 'Results are a list of 1 to 1000 {reference, outcome, message}.');
  END IF;
  SELECT g.ord, g.reference, g.outcome INTO bad FROM payout_desk.results_of(p_results) g
    WHERE g.outcome IS NULL OR g.outcome NOT IN ('sent', 'accepted', 'refused', 'unknown', 'paid', 'failed')
       OR NOT EXISTS (SELECT 1 FROM payout_desk.claim_items i WHERE i.claim_reference = p_reference
                      AND i.item_reference = g.reference)
    ORDER BY g.ord LIMIT 1;
  IF bad.ord IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', format('Result %s: %s.', bad.ord, CASE
      WHEN bad.outcome IS NULL OR bad.outcome NOT IN ('sent', 'accepted', 'refused', 'unknown', 'paid', 'failed')
        THEN 'the outcome is one of sent, accepted, refused, unknown, paid, failed'
      ELSE format('%s is not a payout of %s', coalesce(bad.reference, '(none)'), p_reference) END));
  END IF;
  IF (SELECT count(DISTINCT g.reference) FROM payout_desk.results_of(p_results) g) <> jsonb_array_length(p_results) THEN
    PERFORM payout_desk.fail('PT400', 'A payout is named twice in one list of results.');
  END IF;
  SELECT g.reference, i.outcome AS was, g.outcome AS wanted INTO bad FROM payout_desk.results_of(p_results) g
    JOIN payout_desk.claim_items i ON i.item_reference = g.reference
    WHERE i.outcome IN ('paid', 'failed', 'refused') AND i.outcome <> g.outcome
    ORDER BY g.ord LIMIT 1;
  IF bad.reference IS NOT NULL THEN
    PERFORM payout_desk.fail('PT409', format('The payout %s is already %s; it cannot become %s.', bad.reference,
      bad.was, bad.wanted));
  END IF;
  WITH updated AS (
    UPDATE payout_desk.claim_items i
      SET outcome = g.outcome, outcome_at = now(), message = coalesce(g.message, i.message),
          first_sent_at = CASE WHEN i.first_sent_at IS NULL AND g.outcome <> 'refused' THEN now() ELSE i.first_sent_at END
      FROM payout_desk.results_of(p_results) g
      WHERE i.item_reference = g.reference AND i.claim_reference = p_reference AND i.outcome IS DISTINCT FROM g.outcome
      RETURNING i.item_reference, i.outcome, i.position
  )
  SELECT jsonb_agg(jsonb_build_object('reference', u.item_reference, 'outcome', u.outcome) ORDER BY u.position)
    INTO changed FROM updated u;
  IF changed IS NULL THEN
    RETURN payout_desk.claim_answer(p_reference, 'recorded', NULL);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM payout_desk.claim_items i WHERE i.claim_reference = p_reference
                 AND (i.outcome IS NULL OR i.outcome NOT IN ('paid', 'failed', 'refused'))) THEN
    UPDATE payout_desk.claims SET state = 'done' WHERE reference = p_reference;
  END IF;
  PERFORM payout_desk.append_audit('results_recorded', existing.run_id, p_reference, jsonb_build_object(
    'version', existing.version, 'results', changed), p_desk);
  IF run.state = 'releasing' AND NOT EXISTS (
       SELECT 1 FROM payout_desk.run_rows r
       LEFT JOIN payout_desk.claim_items i ON i.item_reference = r.reference AND i.run_id = r.run_id
       WHERE r.run_id = run.run_id AND r.version = run.current_version
         AND (i.outcome IS NULL OR i.outcome NOT IN ('paid', 'failed', 'refused'))) THEN
    UPDATE payout_desk.runs SET state = 'completed', updated_at = now() WHERE run_id = run.run_id;
    PERFORM payout_desk.append_audit('run_completed', run.run_id, NULL, jsonb_build_object(
      'version', run.current_version,
      'paid', (SELECT count(*) FROM payout_desk.claim_items i WHERE i.run_id = run.run_id AND i.outcome = 'paid'),
      'failed', (SELECT count(*) FROM payout_desk.claim_items i WHERE i.run_id = run.run_id AND i.outcome = 'failed'),
      'refused', (SELECT count(*) FROM payout_desk.claim_items i WHERE i.run_id = run.run_id AND i.outcome = 'refused')),
      p_desk);
  END IF;
  RETURN payout_desk.claim_answer(p_reference, 'recorded', NULL);
END
$$;

-- ---- Reads.

CREATE VIEW payout_desk.team_claims WITH (security_barrier) AS
  SELECT c.reference, c.kind, c.run_id, c.version, c.state, c.holder, c.holder_desk,
         payout_desk.iso(c.claimed_at) AS claimed_at, payout_desk.iso(c.lease_until) AS lease_until,
         c.lease_until <= now() AS lease_expired, c.takeovers,
         (SELECT count(*) FROM payout_desk.claim_items i WHERE i.claim_reference = c.reference)::integer AS payouts,
         (SELECT coalesce(jsonb_agg(i.item_reference ORDER BY i.position), '[]'::jsonb)
            FROM payout_desk.claim_items i WHERE i.claim_reference = c.reference) AS payout_references
  FROM payout_desk.claims c
  WHERE payout_desk.is_member();

CREATE VIEW payout_desk.team_claim_items WITH (security_barrier) AS
  SELECT i.item_reference, i.claim_reference, i.run_id, i.version, i.position, i.outcome,
         payout_desk.iso(i.outcome_at) AS outcome_at, i.message
  FROM payout_desk.claim_items i
  WHERE payout_desk.is_member();

-- "Already paid": every payout a desk of the team sent (or may have: unknown), with what the
-- desk's already-paid check compares (shared/bulk/journal-match.ts).
CREATE VIEW payout_desk.team_payment_memory WITH (security_barrier) AS
  SELECT i.item_reference AS reference, r.bank_code, r.account_number, r.amount::text AS amount,
         payout_desk.iso(i.first_sent_at) AS sent_at, i.first_sent_at, run.label AS run_label, i.run_id, i.outcome
  FROM payout_desk.claim_items i
  JOIN payout_desk.run_rows r ON r.run_id = i.run_id AND r.version = i.version AND r.position = i.position
  JOIN payout_desk.runs run ON run.run_id = i.run_id
  WHERE i.first_sent_at IS NOT NULL AND i.outcome IN ('sent', 'accepted', 'unknown', 'paid')
    AND payout_desk.is_member();

CREATE VIEW payout_desk.team_recent_payouts WITH (security_barrier) AS
  SELECT i.item_reference AS reference, i.run_id, run.label AS run_label, r.amount::text AS amount, v.currency,
         r.bank_code, r.account_number, r.customer_name, i.outcome, payout_desk.iso(i.outcome_at) AS outcome_at,
         i.outcome_at AS outcome_time, i.message, c.holder AS released_by, c.holder_desk AS desk_id
  FROM payout_desk.claim_items i
  JOIN payout_desk.run_rows r ON r.run_id = i.run_id AND r.version = i.version AND r.position = i.position
  JOIN payout_desk.run_versions v ON v.run_id = i.run_id AND v.version = i.version
  JOIN payout_desk.runs run ON run.run_id = i.run_id
  JOIN payout_desk.claims c ON c.reference = i.claim_reference
  WHERE i.outcome IS NOT NULL AND payout_desk.is_member();

GRANT SELECT ON payout_desk.team_claims, payout_desk.team_claim_items, payout_desk.team_payment_memory,
  payout_desk.team_recent_payouts
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
GRANT EXECUTE ON FUNCTION payout_desk.claim(text, integer, text, text, text, text[], text, integer),
  payout_desk.renew_claim(text, text, integer), payout_desk.release_claim(text, text, text)
  TO payout_desk_approver;
GRANT EXECUTE ON FUNCTION payout_desk.record_results(text, text, jsonb)
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
