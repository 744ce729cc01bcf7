-- Two approvers when the total reaches the currency's threshold, or when it has none.
CREATE OR REPLACE FUNCTION payout_desk.approvals_required(p_currency text, p_total numeric) RETURNS integer
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT CASE WHEN t.amount IS NULL OR p_total >= t.amount THEN 2 ELSE 1 END
  FROM (SELECT (SELECT th.amount FROM payout_desk.thresholds th WHERE th.currency = p_currency) AS amount) t
$$;
