-- "Daily total for NGN": a limit named as the desk names it (shared/limits/payout-limits.ts).
CREATE OR REPLACE FUNCTION payout_desk.limit_name(p_kind text, p_currency text) RETURNS text
  LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT CASE p_kind WHEN 'per_payout' THEN 'Maximum per payout' WHEN 'daily_total' THEN 'Daily total'
    ELSE 'Daily count' END || ' for ' || p_currency
$$;
