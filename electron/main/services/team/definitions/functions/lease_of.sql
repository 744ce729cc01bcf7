-- A claim's lease: 1 to 3600 seconds, checked the same wherever a desk asks for one.
CREATE OR REPLACE FUNCTION payout_desk.lease_of(p_lease_seconds integer) RETURNS interval
  LANGUAGE plpgsql IMMUTABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF p_lease_seconds IS NULL OR p_lease_seconds NOT BETWEEN 1 AND 3600 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A lease is 1 to 3600 seconds.');
  END IF;
  RETURN make_interval(secs => p_lease_seconds);
END
$$;
