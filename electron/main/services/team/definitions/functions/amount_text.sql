-- An amount as people read it in a refusal: 1,000,000.00 (decision 138).
CREATE OR REPLACE FUNCTION payout_desk.amount_text(p_amount numeric) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT to_char(p_amount, 'FM999,999,999,999,999,990.00')
$$;
