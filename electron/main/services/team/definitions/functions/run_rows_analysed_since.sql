-- Whether run_rows was analysed (by a release or by autovacuum) after this version was approved.
CREATE OR REPLACE FUNCTION payout_desk.run_rows_analysed_since(p_run_id text, p_version integer) RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT coalesce((
    SELECT greatest(s.last_analyze, s.last_autoanalyze) >= coalesce(v.approved_at, v.created_at)
      FROM pg_catalog.pg_stat_user_tables s, payout_desk.run_versions v
     WHERE s.relid = 'payout_desk.run_rows'::regclass AND v.run_id = p_run_id AND v.version = p_version), false)
$$;
