-- Submits a draft for approval: the version and its hash as the preparer's desk has them, both
-- required. Submitted again, it answers the run as it is.
CREATE OR REPLACE FUNCTION payout_desk.submit_run(p_run_id text, p_version integer, p_hash text, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('preparer', p_desk);
  run payout_desk.runs;
  version_row payout_desk.run_versions;
  refused jsonb;
BEGIN
  PERFORM payout_desk.require_given(p_version,
    format('A version is required: say which version of run %s is submitted.', coalesce(p_run_id, '(none)')));
  PERFORM payout_desk.require_given(p_hash,
    format('The content hash of run %s version %s is required.', coalesce(p_run_id, '(none)'), p_version));
  run := payout_desk.lock_run(p_run_id);
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', 'version_stale', format('Run %s changed meanwhile: version %s is current, not %s.',
      p_run_id, run.current_version, p_version));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash, format('Run %s version %s', p_run_id, p_version));
  IF run.state = 'awaiting_approval' THEN
    RETURN payout_desk.run_view(p_run_id);
  END IF;
  IF run.state <> 'draft' THEN
    PERFORM payout_desk.fail('PT409', 'run_not_draft', format('Run %s is %s; only a draft is submitted for approval%s.', p_run_id,
      replace(run.state, '_', ' '),
      CASE WHEN run.state = 'rejected' THEN ' (change it first: that makes a new version)' ELSE '' END));
  END IF;
  -- A row above a maximum per payout the team refuses is refused now, not at release (decision 138).
  refused := payout_desk.per_payout_breach(p_run_id, p_version);
  IF refused ->> 'onBreach' = 'refuse' THEN
    PERFORM payout_desk.fail('PT403', 'limit_exceeded', refused ->> 'message');
  END IF;
  UPDATE payout_desk.runs SET state = 'awaiting_approval', updated_at = now() WHERE run_id = p_run_id;
  UPDATE payout_desk.run_versions SET submitted_at = now() WHERE run_id = p_run_id AND version = p_version;
  PERFORM payout_desk.append_audit('run_submitted', p_run_id, NULL, jsonb_build_object(
    'version', p_version, 'contentHash', version_row.content_hash, 'total', version_row.total::text,
    'currency', version_row.currency, 'rows', version_row.row_count,
    'approvalsRequired', payout_desk.run_approvals_required(p_run_id, p_version)), p_desk);
  RETURN payout_desk.run_view(p_run_id);
END
$$;
