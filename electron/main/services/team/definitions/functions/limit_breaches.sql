-- Every team limit the rest of a run version (its payouts not claimed yet) would break if `p_member`
-- released it now (decision 138), in the order a desk checks them (shared/limits/limit-rules.ts):
-- the sending hours, the maximum per payout, the member's daily total, their daily count. Each is
-- {limit, onBreach, message}; the message names the limit, what the member already sent today and
-- what the run would add, in the words of a desk alone.
CREATE OR REPLACE FUNCTION payout_desk.limit_breaches(p_member text, p_run_id text, p_version integer) RETURNS jsonb
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  settings payout_desk.limit_settings;
  version_row payout_desk.run_versions;
  rule payout_desk.limit_rules;
  adding numeric;
  adding_count integer;
  sent record;
  local_now timestamp;
  now_minute integer;
  from_minute integer;
  to_minute integer;
  breaches jsonb := '[]'::jsonb;
  per_payout jsonb;
BEGIN
  SELECT * INTO settings FROM payout_desk.limit_settings;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  IF settings.hours_from IS NOT NULL THEN
    local_now := now() AT TIME ZONE settings.time_zone;
    now_minute := extract(hour FROM local_now)::integer * 60 + extract(minute FROM local_now)::integer;
    from_minute := split_part(settings.hours_from, ':', 1)::integer * 60 + split_part(settings.hours_from, ':', 2)::integer;
    to_minute := split_part(settings.hours_to, ':', 1)::integer * 60 + split_part(settings.hours_to, ':', 2)::integer;
    IF NOT (CASE WHEN from_minute < to_minute THEN now_minute >= from_minute AND now_minute < to_minute
                 ELSE now_minute >= from_minute OR now_minute < to_minute END) THEN
      breaches := breaches || jsonb_build_array(jsonb_build_object('limit', 'hours', 'onBreach', settings.hours_on_breach,
        'message', format('Sending is allowed from %s to %s (%s time); it is %s there now.', settings.hours_from,
          settings.hours_to, settings.time_zone, to_char(local_now, 'HH24:MI'))));
    END IF;
  END IF;
  IF version_row.run_id IS NULL
     OR NOT EXISTS (SELECT 1 FROM payout_desk.limit_rules l WHERE l.currency = version_row.currency) THEN
    RETURN breaches;
  END IF;
  per_payout := payout_desk.per_payout_breach(p_run_id, p_version);
  IF per_payout IS NOT NULL THEN
    breaches := breaches || jsonb_build_array(per_payout);
  END IF;
  SELECT coalesce(sum(r.amount), 0), count(*)::integer INTO adding, adding_count
    FROM payout_desk.run_rows r
    WHERE r.run_id = p_run_id AND r.version = p_version
      AND NOT EXISTS (SELECT 1 FROM payout_desk.claim_items i WHERE i.item_reference = r.reference);
  SELECT * INTO sent FROM payout_desk.member_sent_today(p_member, version_row.currency);
  SELECT * INTO rule FROM payout_desk.limit_rules l WHERE l.kind = 'daily_total' AND l.currency = version_row.currency;
  IF rule.kind IS NOT NULL AND sent.amount + adding > rule.value THEN
    breaches := breaches || jsonb_build_array(jsonb_build_object('limit', 'daily_total', 'onBreach', rule.on_breach,
      'message', format('%s is %s; %s was already sent today by %s; this run would add %s.',
        payout_desk.limit_name('daily_total', rule.currency), payout_desk.amount_text(rule.value),
        payout_desk.amount_text(sent.amount), p_member, payout_desk.amount_text(adding))));
  END IF;
  SELECT * INTO rule FROM payout_desk.limit_rules l WHERE l.kind = 'daily_count' AND l.currency = version_row.currency;
  IF rule.kind IS NOT NULL AND sent.payouts + adding_count > rule.value THEN
    breaches := breaches || jsonb_build_array(jsonb_build_object('limit', 'daily_count', 'onBreach', rule.on_breach,
      'message', format('%s is %s %s; %s %s already sent today by %s; this run would add %s.',
        payout_desk.limit_name('daily_count', rule.currency), rule.value::integer,
        CASE WHEN rule.value = 1 THEN 'payout' ELSE 'payouts' END,
        sent.payouts, CASE WHEN sent.payouts = 1 THEN 'was' ELSE 'were' END, p_member, adding_count)));
  END IF;
  RETURN breaches;
END
$$;
