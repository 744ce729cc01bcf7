-- A team limit as it is now, in the shape a change proposes it (decision 138): a rule
-- {value, onBreach}, the hours {from, to, onBreach}, the zone {timeZone}; NULL when not set.
CREATE OR REPLACE FUNCTION payout_desk.limit_current(p_subject text) RETURNS jsonb
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT CASE
    WHEN p_subject = 'time_zone' THEN (SELECT jsonb_build_object('timeZone', s.time_zone) FROM payout_desk.limit_settings s)
    WHEN p_subject = 'hours' THEN (SELECT CASE WHEN s.hours_from IS NULL THEN NULL ELSE
      jsonb_build_object('from', s.hours_from, 'to', s.hours_to, 'onBreach', s.hours_on_breach) END
      FROM payout_desk.limit_settings s)
    ELSE (SELECT jsonb_build_object('value', CASE WHEN l.kind = 'daily_count' THEN l.value::integer::text ELSE l.value::text END,
      'onBreach', l.on_breach)
      FROM payout_desk.limit_rules l WHERE l.kind || ':' || l.currency = p_subject)
  END
$$;
