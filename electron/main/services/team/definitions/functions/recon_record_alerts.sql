-- Records the payouts of a period a desk found at the service and in no record of the team
-- (decision 149). Recorded once each (audited as recon_alert) and kept: a close is held to every
-- one any desk found, even a close that names none.
CREATE OR REPLACE FUNCTION payout_desk.recon_record_alerts(p_period text, p_references text[], p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_mode text := payout_desk.recon_desk_mode(p_period, p_desk);
  v_reference text;
BEGIN
  PERFORM payout_desk.require_given(p_references, 'The references are required: an empty list when there are none.');
  IF cardinality(p_references) > 100000 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'At most 100,000 references are recorded at once.');
  END IF;
  FOREACH v_reference IN ARRAY p_references LOOP
    IF v_reference IS NULL OR length(v_reference) NOT BETWEEN 1 AND 100 THEN
      PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A reference is 1 to 100 characters.');
    END IF;
    INSERT INTO payout_desk.recon_alerts (mode, period_key, reference, recorded_by, desk_id)
      VALUES (v_mode, p_period, v_reference, session_user::text, p_desk)
      ON CONFLICT DO NOTHING;
    IF FOUND THEN
      PERFORM payout_desk.append_audit('recon_alert', NULL, v_reference,
        jsonb_build_object('period', p_period, 'mode', v_mode), p_desk);
    END IF;
  END LOOP;
  RETURN payout_desk.recon_view(v_mode, p_period);
END
$$;
