-- A period as the team recorded it, in the calling desk's mode (decision 149): recon_view.
CREATE OR REPLACE FUNCTION payout_desk.recon_period(p_period text, p_desk text) RETURNS jsonb
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  RETURN payout_desk.recon_view(payout_desk.recon_desk_mode(p_period, p_desk), p_period);
END
$$;
