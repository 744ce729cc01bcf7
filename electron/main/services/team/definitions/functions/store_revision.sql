-- The body of revise_run (decision 105): called by it, granted to no one.
-- A new version of the run. Any approval given to an earlier version is void from now on, and
-- the trail says so (an entry everyone's desk is told of). The base version is required: without
-- it the stale-version check would compare with NULL and let any change through (decision 64).
CREATE OR REPLACE FUNCTION payout_desk.store_revision(p_run_id text, p_base_version integer, p_desk text, p_content jsonb,
    p_hash text)
  RETURNS jsonb
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('preparer', p_desk);
  run payout_desk.runs;
  next_version integer;
  stored text;
  voided jsonb;
BEGIN
  PERFORM payout_desk.require_given(p_base_version,
    format('A base version is required: say which version of run %s you changed.', coalesce(p_run_id, '(none)')));
  PERFORM payout_desk.require_given(p_hash,
    format('The content hash of the new version of run %s is required.', coalesce(p_run_id, '(none)')));
  run := payout_desk.lock_run(p_run_id);
  IF run.current_version = p_base_version + 1
     AND (SELECT created_by = me AND content_hash = p_hash FROM payout_desk.run_versions
          WHERE run_id = p_run_id AND version = run.current_version) THEN
    RETURN payout_desk.run_view(p_run_id); -- the same revision asked again
  END IF;
  IF run.state IN ('releasing', 'completed') THEN
    PERFORM payout_desk.fail('PT409', 'run_closed', format('Run %s is %s: it can no longer be changed.', p_run_id,
      CASE run.state WHEN 'releasing' THEN 'being released' ELSE 'completed' END));
  END IF;
  IF run.current_version <> p_base_version THEN
    PERFORM payout_desk.fail('PT409', 'version_stale', format('Run %s changed meanwhile: version %s is current, not %s.',
      p_run_id, run.current_version, p_base_version));
  END IF;
  next_version := run.current_version + 1;
  stored := payout_desk.store_version(p_run_id, next_version, p_content, me);
  PERFORM payout_desk.check_hash(p_hash, stored, format('Run %s version %s', p_run_id, next_version));
  SELECT jsonb_agg(d.decided_by ORDER BY d.decided_at) INTO voided FROM payout_desk.run_decisions d
    WHERE d.run_id = p_run_id AND d.version = run.current_version AND d.decision = 'approved';
  UPDATE payout_desk.runs SET current_version = next_version, state = 'draft', updated_at = now()
    WHERE run_id = p_run_id;
  PERFORM payout_desk.append_audit('run_revised', p_run_id, NULL, jsonb_build_object(
    'version', next_version, 'previousVersion', run.current_version, 'contentHash', stored,
    'previousState', run.state), p_desk);
  IF voided IS NOT NULL THEN
    PERFORM payout_desk.append_audit('approval_voided', p_run_id, NULL, jsonb_build_object(
      'version', run.current_version, 'approvedBy', voided, 'wasApproved', run.state = 'approved',
      'becauseOfVersion', next_version,
      'message', format('The approval of version %s is void: %s changed the run (version %s).',
        run.current_version, me, next_version)), p_desk);
  END IF;
  RETURN payout_desk.run_view(p_run_id);
END
$$;
