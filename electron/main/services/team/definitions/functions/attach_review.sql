-- The review the preparer's desk saw, stored with the version create_run or revise_run has just
-- stored (`p_stored` is the run's view then), by the member who made it; NULL (psql) stores none
-- (decision 105). Answers the run's view as it is now. Called by those two, granted to no one.
CREATE OR REPLACE FUNCTION payout_desk.attach_review(p_stored jsonb, p_review jsonb) RETURNS jsonb
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF p_review IS NOT NULL THEN
    -- session_user is the calling member (require_role answered it when the version was stored).
    PERFORM payout_desk.store_review(p_stored ->> 'runId', (p_stored ->> 'version')::integer, p_review,
      session_user::text);
  END IF;
  RETURN payout_desk.run_view(p_stored ->> 'runId');
END
$$;
