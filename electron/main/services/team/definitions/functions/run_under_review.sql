-- The run an approver decides on (approve_run, reject_run), locked until commit: the version they
-- reviewed is named (decision 64) and still current, and they neither prepared nor edited the run
-- (maker-checker, decision 38). Its state is for the caller to check: approving again what this
-- approver approved already answers the run as it is.
CREATE OR REPLACE FUNCTION payout_desk.run_under_review(p_run_id text, p_version integer, p_me text, p_what text)
  RETURNS payout_desk.runs
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  run payout_desk.runs := payout_desk.lock_run(p_run_id);
BEGIN
  PERFORM payout_desk.require_given(p_version,
    format('A version is required: say which version of run %s you reviewed.', coalesce(p_run_id, '(none)')));
  PERFORM payout_desk.require_checker(p_run_id, p_me, p_what);
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', 'version_stale', format('Run %s changed: version %s is current, not the version %s you reviewed.',
      p_run_id, run.current_version, p_version));
  END IF;
  RETURN run;
END
$$;
