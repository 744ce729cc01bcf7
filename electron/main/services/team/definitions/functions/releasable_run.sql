-- The run a claim is made on, locked to commit: approved at this version, and the content the
-- releasing desk recomputed the hash of (what it is about to send) is what was approved. A missing
-- version or hash is refused by name (decision 64); a completed run says so (run_completed: its
-- batches are followed by reference, never claimed, decision 62).
CREATE OR REPLACE FUNCTION payout_desk.releasable_run(p_run_id text, p_version integer, p_hash text)
  RETURNS payout_desk.runs
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  run payout_desk.runs;
  version_row payout_desk.run_versions;
BEGIN
  PERFORM payout_desk.require_given(p_version,
    format('A version is required: say which version of run %s is released.', coalesce(p_run_id, '(none)')));
  run := payout_desk.lock_run(p_run_id);
  IF run.state NOT IN ('approved', 'releasing') THEN
    PERFORM payout_desk.fail('PT409', CASE run.state WHEN 'completed' THEN 'run_completed' ELSE 'run_not_approved' END,
      format('Run %s is %s: only an approved run is released.', p_run_id, replace(run.state, '_', ' ')));
  END IF;
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', 'version_stale', format('Run %s version %s is approved, not version %s.', p_run_id,
      run.current_version, p_version));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  IF version_row.approved_at IS NULL THEN
    PERFORM payout_desk.fail('PT409', 'run_not_approved', format('Run %s version %s is not approved.', p_run_id, p_version));
  END IF;
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash,
    format('Run %s version %s as approved', p_run_id, p_version));
  RETURN run;
END
$$;
