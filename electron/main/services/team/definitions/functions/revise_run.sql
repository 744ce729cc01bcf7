-- A new version of the run with its review (a new review with the same content is a new version
-- too: what approvers saw changed, so their approvals are void). NULL (psql) stores none; there is
-- no call without the argument (decision 105).
CREATE OR REPLACE FUNCTION payout_desk.revise_run(p_run_id text, p_base_version integer, p_desk text, p_content jsonb,
    p_hash text, p_review jsonb)
  RETURNS jsonb
  LANGUAGE sql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT payout_desk.attach_review(payout_desk.store_revision(p_run_id, p_base_version, p_desk, p_content, p_hash),
    p_review);
$$;
