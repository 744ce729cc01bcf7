-- A second member confirms the explanation in force of one payout of a period (decision 149): not
-- its author (the recon_confirmations trigger refuses them, whoever calls). Refused while the
-- period is closed, or when nothing is explained. Audited (recon_confirmed).
CREATE OR REPLACE FUNCTION payout_desk.recon_confirm(p_period text, p_reference text, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_mode text := payout_desk.recon_desk_mode(p_period, p_desk);
  v_seq bigint;
BEGIN
  PERFORM payout_desk.require_given(p_reference, 'A reference is required: say which explanation is confirmed.');
  IF payout_desk.recon_closed(v_mode, p_period) THEN
    PERFORM payout_desk.fail('PT409', 'period_closed',
      'The period is closed: reopen it, with a reason, before confirming an explanation.');
  END IF;
  SELECT x.seq INTO v_seq FROM payout_desk.recon_explanations x
   WHERE x.mode = v_mode AND x.period_key = p_period AND x.reference = p_reference ORDER BY x.seq DESC LIMIT 1;
  IF v_seq IS NULL THEN
    PERFORM payout_desk.fail('PT404', 'explanation_not_found', format(
      '%s has no explanation in this period: a member explains it first, then a second member confirms.', p_reference));
  END IF;
  IF EXISTS (SELECT 1 FROM payout_desk.recon_confirmations c WHERE c.explanation_seq = v_seq) THEN
    RETURN payout_desk.recon_view(v_mode, p_period); -- confirmed already
  END IF;
  INSERT INTO payout_desk.recon_confirmations (explanation_seq, confirmed_by, desk_id)
    VALUES (v_seq, session_user::text, p_desk);
  PERFORM payout_desk.append_audit('recon_confirmed', NULL, p_reference, jsonb_build_object(
    'period', p_period, 'mode', v_mode, 'explanation', v_seq), p_desk);
  RETURN payout_desk.recon_view(v_mode, p_period);
END
$$;
