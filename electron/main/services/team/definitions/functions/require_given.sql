-- Refuses NULL where a value is required, naming what is missing (decision 64): `x <> NULL` is
-- NULL, and an IF on NULL does nothing, so a missing value would otherwise skip a check.
CREATE OR REPLACE FUNCTION payout_desk.require_given(p_value anyelement, p_missing text) RETURNS void
  LANGUAGE plpgsql IMMUTABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF p_value IS NULL THEN
    PERFORM payout_desk.fail('PT400', 'missing_argument', p_missing);
  END IF;
END
$$;
