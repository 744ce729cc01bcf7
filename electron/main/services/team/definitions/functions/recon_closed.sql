-- Whether a period is closed in a mode: its last close or reopening is a close (decision 149).
CREATE OR REPLACE FUNCTION payout_desk.recon_closed(p_mode text, p_period text) RETURNS boolean
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT coalesce((SELECT e.type = 'closed' FROM payout_desk.recon_events e
                    WHERE e.mode = p_mode AND e.period_key = p_period ORDER BY e.seq DESC LIMIT 1), false)
$$;
