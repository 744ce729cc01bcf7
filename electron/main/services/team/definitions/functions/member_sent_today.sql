-- What a member released today in a currency, from the team's records (decision 138): every payout
-- their claims took since today began in the limits' zone, whatever happened after (sent, not known
-- yet, paid), except those the service refused or that failed, as a desk alone counts (decision 127).
-- A claim given back took nothing (its payouts are deleted with it).
CREATE OR REPLACE FUNCTION payout_desk.member_sent_today(p_member text, p_currency text,
    OUT amount numeric, OUT payouts integer)
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT coalesce(sum(r.amount), 0), count(*)::integer
  FROM payout_desk.claim_items i
  JOIN payout_desk.run_rows r ON r.run_id = i.run_id AND r.version = i.version AND r.position = i.position
  JOIN payout_desk.run_versions v ON v.run_id = i.run_id AND v.version = i.version
  WHERE i.claimed_by = p_member AND i.claimed_at >= payout_desk.limit_day_start() AND v.currency = p_currency
    AND (i.outcome IS NULL OR i.outcome NOT IN ('refused', 'failed'))
$$;
