-- The words of a breach of the maximum per payout by rows of a run version still to be claimed,
-- with the limit's choice (refuse, or one more approver), or NULL when no row is above it.
CREATE OR REPLACE FUNCTION payout_desk.per_payout_breach(p_run_id text, p_version integer) RETURNS jsonb
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT jsonb_build_object('limit', 'per_payout', 'onBreach', l.on_breach, 'message', format(
      '%s is %s; %s %s above it (the largest %s).',
      payout_desk.limit_name('per_payout', v.currency), payout_desk.amount_text(l.value),
      CASE WHEN a.n = 1 THEN 'row ' ELSE 'rows ' END || a.positions || CASE WHEN a.n > 10 THEN format(', … (%s rows)', a.n) ELSE '' END
        || ' of this run',
      CASE WHEN a.n = 1 THEN 'is' ELSE 'are' END, payout_desk.amount_text(a.largest)))
  FROM payout_desk.run_versions v
  JOIN payout_desk.limit_rules l ON l.kind = 'per_payout' AND l.currency = v.currency
  CROSS JOIN LATERAL (
    SELECT count(*) AS n, max(r.amount) AS largest,
      array_to_string((array_agg(r.position ORDER BY r.position))[1:10], ', ') AS positions
    FROM payout_desk.run_rows r
    WHERE r.run_id = v.run_id AND r.version = v.version AND r.amount > l.value
      AND NOT EXISTS (SELECT 1 FROM payout_desk.claim_items i WHERE i.item_reference = r.reference)
  ) a
  WHERE v.run_id = p_run_id AND v.version = p_version AND a.n > 0
$$;
