-- The team's limits as a desk shows and checks them (decision 138): the rules, the hours and the
-- zone, the changes waiting for a second admin, and what the reader released today per currency.
-- Security definer so the team_limits view can call it for its reader; nothing to a non-member.
CREATE OR REPLACE FUNCTION payout_desk.limits_view() RETURNS jsonb
  LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT jsonb_build_object(
    'rules', coalesce((SELECT jsonb_agg(jsonb_build_object('kind', l.kind, 'currency', l.currency,
        'value', CASE WHEN l.kind = 'daily_count' THEN l.value::integer::text ELSE l.value::text END,
        'onBreach', l.on_breach, 'proposedBy', l.proposed_by, 'approvedBy', l.approved_by,
        'setAt', payout_desk.iso(l.set_at)) ORDER BY l.currency, l.kind) FROM payout_desk.limit_rules l), '[]'::jsonb),
    'hours', payout_desk.limit_current('hours'),
    'timeZone', s.time_zone,
    'pending', coalesce((SELECT jsonb_agg(jsonb_build_object('subject', c.subject,
        'from', payout_desk.limit_current(c.subject), 'to', c.proposed, 'proposedBy', c.proposed_by,
        'proposedAt', payout_desk.iso(c.proposed_at)) ORDER BY c.subject) FROM payout_desk.limit_changes c), '[]'::jsonb),
    'sentToday', coalesce((SELECT jsonb_agg(jsonb_build_object('currency', c.currency, 'amount', t.amount::text,
        'count', t.payouts) ORDER BY c.currency)
      FROM (SELECT DISTINCT v.currency FROM payout_desk.claim_items i
            JOIN payout_desk.run_versions v ON v.run_id = i.run_id AND v.version = i.version
            WHERE i.claimed_by = session_user::text AND i.claimed_at >= payout_desk.limit_day_start()) c
      CROSS JOIN LATERAL payout_desk.member_sent_today(session_user::text, c.currency) t
      WHERE t.payouts > 0), '[]'::jsonb))
  FROM payout_desk.limit_settings s
  WHERE payout_desk.is_member()
$$;
