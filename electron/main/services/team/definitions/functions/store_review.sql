-- A version's review is written with the version, in the transaction that stores it, by its
-- maker; never afterwards. A repeat of the call that stored it (the same create or revise asked
-- again) changes nothing: the first review stays. A version stored without one keeps none.
-- (The version's row was inserted by this transaction exactly when its created_at, the default
-- now(), is this transaction's start.)
CREATE OR REPLACE FUNCTION payout_desk.store_review(p_run_id text, p_version integer, p_review jsonb, p_me text)
  RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  version_row payout_desk.run_versions;
  problem text;
BEGIN
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version FOR UPDATE;
  IF version_row.run_id IS NULL THEN
    PERFORM payout_desk.fail('PT404', 'version_not_found', format('Run %s has no version %s.', coalesce(p_run_id, '(none)'), p_version));
  END IF;
  IF version_row.created_by IS DISTINCT FROM p_me THEN
    PERFORM payout_desk.fail('PT403', 'not_version_maker', format('%s did not make version %s of run %s, so cannot record its review.',
      p_me, p_version, p_run_id));
  END IF;
  problem := payout_desk.review_problem(p_review, version_row.row_count, version_row.merchant_bears_cost);
  IF problem IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'review_invalid', format('The review figures of run %s %s.', p_run_id, problem));
  END IF;
  IF version_row.review IS NOT NULL THEN
    RETURN; -- asked again: the review stored with the version stays
  END IF;
  IF version_row.created_at <> transaction_timestamp() OR version_row.submitted_at IS NOT NULL
     OR version_row.approved_at IS NOT NULL THEN
    PERFORM payout_desk.fail('PT409', 'review_fixed', format(
      'Version %s of run %s was stored without review figures%s; a review is fixed with its version. Share a new version to show approvers a review.',
      p_version, p_run_id, CASE WHEN version_row.approved_at IS NOT NULL THEN ' and approved as it was'
                                WHEN version_row.submitted_at IS NOT NULL THEN ' and submitted as it was'
                                ELSE '' END));
  END IF;
  UPDATE payout_desk.run_versions SET review = p_review WHERE run_id = p_run_id AND version = p_version;
END
$$;
