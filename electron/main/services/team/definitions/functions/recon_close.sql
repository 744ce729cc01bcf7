-- Closes a period (decision 149): the payouts made by nobody in the team that the closing desk
-- found are recorded as alerts first, then the close is written; the recon_events trigger refuses
-- it while any alert of the period lacks an explanation confirmed by a second member, or when the
-- period is closed already. `p_report` names the report the closing desk wrote (decision 141).
-- Audited (recon_closed).
CREATE OR REPLACE FUNCTION payout_desk.recon_close(p_period text, p_exceptions integer, p_service_only text[],
    p_report jsonb, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_mode text := payout_desk.recon_desk_mode(p_period, p_desk);
BEGIN
  PERFORM payout_desk.require_given(p_exceptions, 'The number of exceptions the close explains is required.');
  PERFORM payout_desk.require_given(p_service_only,
    'The payouts made by nobody in the team are required: an empty list when there are none.');
  PERFORM payout_desk.recon_record_alerts(p_period, p_service_only, p_desk);
  INSERT INTO payout_desk.recon_events (mode, period_key, type, by_member, desk_id, exceptions, report)
    VALUES (v_mode, p_period, 'closed', session_user::text, p_desk, p_exceptions, p_report);
  PERFORM payout_desk.append_audit('recon_closed', NULL, p_period, jsonb_build_object(
    'period', p_period, 'mode', v_mode, 'exceptions', p_exceptions, 'report', p_report), p_desk);
  RETURN payout_desk.recon_view(v_mode, p_period);
END
$$;
