-- What the team recorded of a period in a mode (decision 149), as every desk shows it: the
-- explanations in force (who, when, and the second member's confirmation), every close and
-- reopening, the alerts, whether it is closed, and what still waits for a second member.
CREATE OR REPLACE FUNCTION payout_desk.recon_view(p_mode text, p_period text) RETURNS jsonb
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT jsonb_build_object(
    'period', p_period,
    'mode', p_mode,
    'closed', payout_desk.recon_closed(p_mode, p_period),
    'explanations', coalesce((
      SELECT jsonb_agg(jsonb_build_object('reference', f.reference, 'class', f.class, 'reason', f.reason,
               'note', f.note, 'by', f.explained_by, 'at', payout_desk.iso(f.explained_at),
               'confirmedBy', c.confirmed_by, 'confirmedAt', payout_desk.iso(c.confirmed_at)) ORDER BY f.reference)
        FROM (SELECT DISTINCT ON (x.reference) x.* FROM payout_desk.recon_explanations x
               WHERE x.mode = p_mode AND x.period_key = p_period ORDER BY x.reference, x.seq DESC) f
        LEFT JOIN payout_desk.recon_confirmations c ON c.explanation_seq = f.seq), '[]'::jsonb),
    'events', coalesce((
      SELECT jsonb_agg(jsonb_build_object('type', e.type, 'by', e.by_member, 'at', payout_desk.iso(e.at),
               'exceptions', e.exceptions, 'reason', e.reason, 'report', e.report) ORDER BY e.seq)
        FROM payout_desk.recon_events e WHERE e.mode = p_mode AND e.period_key = p_period), '[]'::jsonb),
    'alerts', coalesce((
      SELECT jsonb_agg(a.reference ORDER BY a.reference) FROM payout_desk.recon_alerts a
       WHERE a.mode = p_mode AND a.period_key = p_period), '[]'::jsonb),
    'awaitingSecond', to_jsonb(payout_desk.recon_unconfirmed(p_mode, p_period)))
$$;
