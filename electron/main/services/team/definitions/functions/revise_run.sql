-- A new version of the run with its review (a new review with the same content is a new version
-- too: what approvers saw changed, so their approvals are void). NULL (psql) stores none; there is
-- no call without the argument (decision 105).
CREATE OR REPLACE FUNCTION payout_desk.revise_run(p_run_id text, p_base_version integer, p_desk text, p_content jsonb,
    p_hash text, p_review jsonb)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('preparer');
  revised jsonb;
BEGIN
  revised := payout_desk.store_revision(p_run_id, p_base_version, p_desk, p_content, p_hash);
  IF p_review IS NOT NULL THEN
    PERFORM payout_desk.store_review(p_run_id, (revised ->> 'version')::integer, p_review, me);
  END IF;
  RETURN payout_desk.run_view(p_run_id);
END
$$;
