-- The team's content text of a version, for a desk to prove its hash agrees.
CREATE OR REPLACE FUNCTION payout_desk.run_content(p_run_id text, p_version integer) RETURNS text
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  PERFORM payout_desk.require_role(NULL);
  RETURN payout_desk.run_content_text(p_run_id, p_version);
END
$$;
