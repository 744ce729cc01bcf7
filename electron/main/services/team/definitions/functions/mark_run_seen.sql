-- The last version of a run this member looked at (the Approvals screen shows the changes since).
CREATE OR REPLACE FUNCTION payout_desk.mark_run_seen(p_run_id text, p_version integer) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version) THEN
    PERFORM payout_desk.fail('PT404', 'version_not_found', format('Run %s has no version %s.', p_run_id, p_version));
  END IF;
  INSERT INTO payout_desk.run_seen (run_id, member, version) VALUES (p_run_id, me, p_version)
    ON CONFLICT (run_id, member) DO UPDATE SET version = greatest(run_seen.version, excluded.version), seen_at = now();
END
$$;
