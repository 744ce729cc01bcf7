-- A time as ISO 8601 UTC with milliseconds, as answers carry it.
CREATE OR REPLACE FUNCTION payout_desk.iso(ts timestamptz) RETURNS text
  LANGUAGE sql STABLE STRICT
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
