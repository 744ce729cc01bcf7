-- Records a member's explanation of one exception of a period (decision 149): its class as the
-- desk found it, a reason from the list and a note; who and when are the database's. An
-- explanation of a payout made by nobody in the team waits for a second member (recon_confirm).
-- Refused while the period is closed. Audited (recon_explained).
CREATE OR REPLACE FUNCTION payout_desk.recon_explain(p_period text, p_reference text, p_class text, p_reason text,
    p_note text, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_mode text := payout_desk.recon_desk_mode(p_period, p_desk);
BEGIN
  PERFORM payout_desk.require_given(p_reference, 'A reference is required: say which payout is explained.');
  PERFORM payout_desk.require_given(p_class, 'The class is required: differs, service_only or ours_only.');
  PERFORM payout_desk.require_given(p_reason, 'A reason is required: one from the list.');
  PERFORM payout_desk.require_given(p_note, 'A note is required (it may be empty).');
  IF p_class NOT IN ('differs', 'service_only', 'ours_only') THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format(
      'The class is differs, service_only or ours_only, not %s.', left(p_class, 40)));
  END IF;
  IF p_reason NOT IN ('authorised_elsewhere', 'fee_agreed', 'reversal_booked', 'sent_again', 'other_period', 'other') THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format('%s is not a reason from the list.', left(p_reason, 40)));
  END IF;
  IF length(p_reference) NOT BETWEEN 1 AND 100 OR length(p_note) > 500 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A reference is 1 to 100 characters and a note at most 500.');
  END IF;
  IF payout_desk.recon_closed(v_mode, p_period) THEN
    PERFORM payout_desk.fail('PT409', 'period_closed',
      'The period is closed: reopen it, with a reason, before explaining a payout.');
  END IF;
  INSERT INTO payout_desk.recon_explanations (mode, period_key, reference, class, reason, note, explained_by, desk_id)
    VALUES (v_mode, p_period, p_reference, p_class, p_reason, p_note, session_user::text, p_desk);
  PERFORM payout_desk.append_audit('recon_explained', NULL, p_reference, jsonb_build_object(
    'period', p_period, 'mode', v_mode, 'class', p_class, 'reason', p_reason, 'note', p_note), p_desk);
  RETURN payout_desk.recon_view(v_mode, p_period);
END
$$;
