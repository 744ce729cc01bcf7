-- The mode a reconciliation record is kept in (decision 149): the calling member's desk's own,
-- as it registered (decision 61), so a rehearsal's desk never explains or closes a Live period.
-- Checks the member, the desk and the period's key; returns the mode.
CREATE OR REPLACE FUNCTION payout_desk.recon_desk_mode(p_period text, p_desk text) RETURNS text
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_mode text;
BEGIN
  PERFORM payout_desk.require_given(p_desk, 'A desk is required: say which desk of yours records this.');
  PERFORM payout_desk.acting_member(NULL, p_desk);
  PERFORM payout_desk.require_given(p_period, 'A period is required: say which period (currency:from:to) this is.');
  IF p_period !~ '^[A-Z]{3}:[0-9]{1,16}:[0-9]{1,16}$' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format(
      'A period is written currency:from:to (epoch milliseconds), not %s.', left(p_period, 60)));
  END IF;
  SELECT d.mode INTO v_mode FROM payout_desk.desks d WHERE d.desk_id = p_desk;
  IF v_mode IS NULL THEN
    PERFORM payout_desk.fail('PT409', 'desk_mode_unknown', format(
      'The desk %s registered without a mode: register it with the mode of the profile it pays with first.', p_desk));
  END IF;
  RETURN v_mode;
END
$$;
