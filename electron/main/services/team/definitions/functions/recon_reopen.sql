-- Reopens a closed period with a reason (decision 149). Audited (recon_reopened).
CREATE OR REPLACE FUNCTION payout_desk.recon_reopen(p_period text, p_reason text, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_mode text := payout_desk.recon_desk_mode(p_period, p_desk);
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
BEGIN
  PERFORM payout_desk.require_given(v_reason, 'A reason is required to reopen a closed period.');
  IF length(v_reason) > 500 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'The reason is longer than 500 characters.');
  END IF;
  IF NOT payout_desk.recon_closed(v_mode, p_period) THEN
    PERFORM payout_desk.fail('PT409', 'period_not_closed', 'The period is not closed: nothing to reopen.');
  END IF;
  INSERT INTO payout_desk.recon_events (mode, period_key, type, by_member, desk_id, reason)
    VALUES (v_mode, p_period, 'reopened', session_user::text, p_desk, v_reason);
  PERFORM payout_desk.append_audit('recon_reopened', NULL, p_period, jsonb_build_object(
    'period', p_period, 'mode', v_mode, 'reason', v_reason), p_desk);
  RETURN payout_desk.recon_view(v_mode, p_period);
END
$$;
