-- When today began in the team's limits zone: a member's day is counted from then (decision 138).
CREATE OR REPLACE FUNCTION payout_desk.limit_day_start() RETURNS timestamptz
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT date_trunc('day', now() AT TIME ZONE s.time_zone) AT TIME ZONE s.time_zone
  FROM payout_desk.limit_settings s
$$;
