-- Approves the version whose hash the approver reviewed, having typed its total. The run is
-- approved once it has as many different approvers as its total requires, and one more when a row
-- is above a maximum per payout set to ask one (decision 138); not while a row is held for a
-- changed or shared account that no member has confirmed (decision 135). An approved run takes one
-- more approval too: what a limit asks before it is released.
CREATE OR REPLACE FUNCTION payout_desk.approve_run(p_run_id text, p_version integer, p_hash text, p_typed_total text,
    p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('approver', p_desk);
  run payout_desk.runs := payout_desk.run_under_review(p_run_id, p_version, me, 'approve');
  version_row payout_desk.run_versions;
  required integer;
  given integer;
  held bigint;
  held_refs text;
BEGIN
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash, format('Run %s version %s', p_run_id, p_version));
  IF EXISTS (SELECT 1 FROM payout_desk.run_decisions WHERE run_id = p_run_id AND version = p_version
             AND decided_by = me AND decision = 'approved') THEN
    RETURN payout_desk.run_view(p_run_id); -- approved already by this approver
  END IF;
  IF run.state IN ('approved', 'releasing') AND version_row.approved_at IS NOT NULL THEN
    -- One approver more than the run required: what a limit set to ask one more approver wants
    -- before it is released (release_within_limits, decision 138). The total is typed as always.
    IF p_typed_total IS NULL OR p_typed_total !~ '^[0-9]{1,19}(\.[0-9]{1,2})?$'
       OR p_typed_total::numeric <> version_row.total THEN
      PERFORM payout_desk.fail('PT400', 'total_mismatch', format('The total typed (%s) is not the run''s total.', coalesce(p_typed_total, 'nothing')));
    END IF;
    INSERT INTO payout_desk.run_decisions (run_id, version, decided_by, decision, content_hash)
      VALUES (p_run_id, p_version, me, 'approved', version_row.content_hash);
    PERFORM payout_desk.append_audit('approval_given', p_run_id, NULL, jsonb_build_object(
      'version', p_version, 'contentHash', version_row.content_hash, 'beyondRequired', true,
      'given', (SELECT count(*) FROM payout_desk.run_decisions d WHERE d.run_id = p_run_id AND d.version = p_version
        AND d.decision = 'approved'),
      'required', payout_desk.run_approvals_required(p_run_id, p_version)), p_desk);
    UPDATE payout_desk.runs SET updated_at = now() WHERE run_id = p_run_id;
    RETURN payout_desk.run_view(p_run_id);
  END IF;
  IF run.state <> 'awaiting_approval' THEN
    PERFORM payout_desk.fail('PT409', 'run_not_awaiting_approval', format('Run %s is %s, not awaiting approval.', p_run_id, replace(run.state, '_', ' ')));
  END IF;
  -- A row held for a changed or shared account waits for a member's confirmation (decision 135).
  SELECT count(*), string_agg(u.reference, ', ' ORDER BY u.row_position) FILTER (WHERE u.row_position <= 10000)
    INTO held, held_refs FROM payout_desk.unconfirmed_payees(p_run_id, p_version) u;
  IF held > 0 THEN
    PERFORM payout_desk.fail('PT409', 'payees_unconfirmed', format(
      'Run %s version %s has %s row(s) held for a changed or shared account that nobody has confirmed yet (%s): a member who did not prepare the run confirms each before it is approved.',
      p_run_id, p_version, held, left(held_refs, 300)));
  END IF;
  IF p_typed_total IS NULL OR p_typed_total !~ '^[0-9]{1,19}(\.[0-9]{1,2})?$'
     OR p_typed_total::numeric <> version_row.total THEN
    PERFORM payout_desk.fail('PT400', 'total_mismatch', format('The total typed (%s) is not the run''s total.', coalesce(p_typed_total, 'nothing')));
  END IF;
  INSERT INTO payout_desk.run_decisions (run_id, version, decided_by, decision, content_hash)
    VALUES (p_run_id, p_version, me, 'approved', version_row.content_hash);
  required := payout_desk.run_approvals_required(p_run_id, p_version);
  SELECT count(*) INTO given FROM payout_desk.run_decisions
    WHERE run_id = p_run_id AND version = p_version AND decision = 'approved';
  PERFORM payout_desk.append_audit('approval_given', p_run_id, NULL, jsonb_build_object(
    'version', p_version, 'contentHash', version_row.content_hash, 'given', given, 'required', required), p_desk);
  IF given >= required THEN
    UPDATE payout_desk.runs SET state = 'approved', updated_at = now() WHERE run_id = p_run_id;
    UPDATE payout_desk.run_versions SET approved_at = now() WHERE run_id = p_run_id AND version = p_version;
    PERFORM payout_desk.append_audit('run_approved', p_run_id, NULL, jsonb_build_object(
      'version', p_version, 'contentHash', version_row.content_hash,
      'approvedBy', (SELECT jsonb_agg(d.decided_by ORDER BY d.decided_at) FROM payout_desk.run_decisions d
        WHERE d.run_id = p_run_id AND d.version = p_version AND d.decision = 'approved')), p_desk);
  ELSE
    UPDATE payout_desk.runs SET updated_at = now() WHERE run_id = p_run_id;
  END IF;
  RETURN payout_desk.run_view(p_run_id);
END
$$;
