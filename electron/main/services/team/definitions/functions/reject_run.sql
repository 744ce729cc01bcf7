-- Rejects the version the approver reviewed, with a reason; the run goes back to its preparer. The
-- version reviewed is required (NULL would reach the insert of the decision and fail there with
-- the database's text, not the team's: decision 64).
CREATE OR REPLACE FUNCTION payout_desk.reject_run(p_run_id text, p_version integer, p_reason text, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('approver', p_desk);
  run payout_desk.runs := payout_desk.run_under_review(p_run_id, p_version, me, 'reject');
  version_row payout_desk.run_versions;
BEGIN
  IF p_reason IS NULL OR length(btrim(p_reason)) NOT BETWEEN 1 AND 500 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A rejection needs a reason of 1 to 500 characters.');
  END IF;
  IF run.state <> 'awaiting_approval' THEN
    PERFORM payout_desk.fail('PT409', 'run_not_awaiting_approval', format('Run %s is %s, not awaiting approval.', p_run_id, replace(run.state, '_', ' ')));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  INSERT INTO payout_desk.run_decisions (run_id, version, decided_by, decision, content_hash, reason)
    VALUES (p_run_id, p_version, me, 'rejected', version_row.content_hash, btrim(p_reason))
    ON CONFLICT (run_id, version, decided_by) DO UPDATE
      SET decision = 'rejected', reason = excluded.reason, decided_at = now();
  UPDATE payout_desk.runs SET state = 'rejected', updated_at = now() WHERE run_id = p_run_id;
  PERFORM payout_desk.append_audit('run_rejected', p_run_id, NULL, jsonb_build_object(
    'version', p_version, 'reason', btrim(p_reason)), p_desk);
  RETURN payout_desk.run_view(p_run_id);
END
$$;
