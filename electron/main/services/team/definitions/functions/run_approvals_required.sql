-- The approvals a run version needs: as its total requires (approvals_required), and one more when
-- a row is above a maximum per payout the team set to ask one more approver (decision 138).
CREATE OR REPLACE FUNCTION payout_desk.run_approvals_required(p_run_id text, p_version integer) RETURNS integer
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT payout_desk.approvals_required(v.currency, v.total)
    + CASE WHEN EXISTS (
        SELECT 1 FROM payout_desk.limit_rules l
        WHERE l.kind = 'per_payout' AND l.currency = v.currency AND l.on_breach = 'approver'
          AND EXISTS (SELECT 1 FROM payout_desk.run_rows r
                      WHERE r.run_id = v.run_id AND r.version = v.version AND r.amount > l.value))
      THEN 1 ELSE 0 END
  FROM payout_desk.run_versions v
  WHERE v.run_id = p_run_id AND v.version = p_version
$$;
