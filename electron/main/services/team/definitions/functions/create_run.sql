-- Shares a run as version 1 with the review the preparer's desk saw, in one transaction. The
-- review is required as an argument: NULL (psql) stores none, and the approver is told so beside
-- the figures the database computes itself (decision 105). There is no call without it.
CREATE OR REPLACE FUNCTION payout_desk.create_run(p_run_id text, p_label text, p_desk text, p_content jsonb, p_hash text,
    p_review jsonb)
  RETURNS jsonb
  LANGUAGE sql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT payout_desk.attach_review(payout_desk.store_new_run(p_run_id, p_label, p_desk, p_content, p_hash), p_review);
$$;
