-- The payouts of a period made with the key by nobody in the team (alerts, and any explained as
-- such) whose explanation in force is missing or not confirmed by a second member (decision 149):
-- the period does not close while one is listed.
CREATE OR REPLACE FUNCTION payout_desk.recon_unconfirmed(p_mode text, p_period text) RETURNS text[]
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  WITH in_force AS (
    SELECT DISTINCT ON (x.reference) x.seq, x.reference, x.class, x.explained_by
      FROM payout_desk.recon_explanations x
     WHERE x.mode = p_mode AND x.period_key = p_period
     ORDER BY x.reference, x.seq DESC
  ), alerts AS (
    SELECT a.reference FROM payout_desk.recon_alerts a WHERE a.mode = p_mode AND a.period_key = p_period
    UNION
    SELECT f.reference FROM in_force f WHERE f.class = 'service_only'
  )
  SELECT coalesce(array_agg(a.reference ORDER BY a.reference), '{}')
    FROM alerts a
    LEFT JOIN in_force f ON f.reference = a.reference
    LEFT JOIN payout_desk.recon_confirmations c ON c.explanation_seq = f.seq AND c.confirmed_by <> f.explained_by
   WHERE c.explanation_seq IS NULL
$$;
