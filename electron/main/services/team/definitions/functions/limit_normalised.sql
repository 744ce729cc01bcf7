-- A proposed team limit checked and written the one way it is stored (decision 138), or refused
-- with what is wrong: a rule {value, onBreach} (an amount with at most two decimals, or a whole
-- number of payouts), the hours {from, to, onBreach} ("HH:MM", different), the zone {timeZone}
-- (one PostgreSQL knows). NULL removes a rule or the hours; the zone is always set.
CREATE OR REPLACE FUNCTION payout_desk.limit_normalised(p_subject text, p_proposed jsonb) RETURNS jsonb
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  kind text := split_part(coalesce(p_subject, ''), ':', 1);
  on_breach text := p_proposed ->> 'onBreach';
  value text := btrim(replace(coalesce(p_proposed ->> 'value', ''), ',', ''));
  zone text := p_proposed ->> 'timeZone';
BEGIN
  IF p_subject IS NULL OR p_subject !~ '^((per_payout|daily_total|daily_count):[A-Z]{3}|hours|time_zone)$' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format(
      'A team limit is per_payout:<currency>, daily_total:<currency>, daily_count:<currency>, hours or time_zone, not %s.',
      coalesce(p_subject, 'nothing')));
  END IF;
  IF p_proposed IS NULL OR p_proposed = 'null'::jsonb THEN
    IF kind = 'time_zone' THEN
      PERFORM payout_desk.fail('PT400', 'invalid_argument', 'The limits'' time zone is always set: propose another one.');
    END IF;
    RETURN NULL;
  END IF;
  IF jsonb_typeof(p_proposed) <> 'object' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format('%s: a proposed limit is an object.', p_subject));
  END IF;
  IF kind = 'time_zone' THEN
    IF zone IS NULL OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_timezone_names z WHERE z.name = zone) THEN
      PERFORM payout_desk.fail('PT400', 'invalid_argument', format('%s is not a time zone the team database knows.',
        coalesce(zone, 'Nothing')));
    END IF;
    RETURN jsonb_build_object('timeZone', zone);
  END IF;
  IF on_breach IS NULL OR on_breach NOT IN ('refuse', 'approver') THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format(
      '%s: say what a breach does: refuse, or approver (one more approver).', p_subject));
  END IF;
  IF kind = 'hours' THEN
    IF coalesce(p_proposed ->> 'from', '') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
       OR coalesce(p_proposed ->> 'to', '') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' THEN
      PERFORM payout_desk.fail('PT400', 'invalid_argument', 'Sending hours are a start and an end such as 08:00 and 18:00.');
    END IF;
    IF p_proposed ->> 'from' = p_proposed ->> 'to' THEN
      PERFORM payout_desk.fail('PT400', 'invalid_argument', 'Sending hours: the start and the end must differ.');
    END IF;
    RETURN jsonb_build_object('from', p_proposed ->> 'from', 'to', p_proposed ->> 'to', 'onBreach', on_breach);
  END IF;
  IF kind = 'daily_count' THEN
    IF value !~ '^[0-9]{1,7}$' OR value::integer < 1 THEN
      PERFORM payout_desk.fail('PT400', 'invalid_argument', format(
        '%s: a whole number of payouts, 1 or more, not "%s".', payout_desk.limit_name(kind, split_part(p_subject, ':', 2)), value));
    END IF;
    RETURN jsonb_build_object('value', value::integer::text, 'onBreach', on_breach);
  END IF;
  IF value !~ '^[0-9]{1,17}(\.[0-9]{1,2})?$' OR value::numeric <= 0 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format(
      '%s: "%s" is not an amount above 0 (digits, at most two decimals).',
      payout_desk.limit_name(kind, split_part(p_subject, ':', 2)), value));
  END IF;
  RETURN jsonb_build_object('value', round(value::numeric, 2)::text, 'onBreach', on_breach);
END
$$;
