-- What the team database works out itself from a version's stored rows, beside the review the
-- preparer's desk reported (decision 105): an approver is shown which figures the database checked
-- and which only the desk says. From the rows: the number of payouts, their total, the payouts
-- that repeat another's bank account and amount (what a sheet's duplicate rows look like); against
-- the desk's review: the difference between the sheet's totals row and the payouts, and any
-- no-match name the review lists that is not a payout of this version. NULL for no such version.
CREATE OR REPLACE FUNCTION payout_desk.review_checks(p_run_id text, p_version integer) RETURNS jsonb
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT jsonb_build_object(
    'payouts', (SELECT count(*) FROM payout_desk.run_rows r WHERE r.run_id = v.run_id AND r.version = v.version),
    'total', (SELECT coalesce(sum(r.amount), 0)::numeric(21, 2)::text FROM payout_desk.run_rows r
              WHERE r.run_id = v.run_id AND r.version = v.version),
    'currency', v.currency,
    'repeatedPayouts', (SELECT coalesce(sum(n) FILTER (WHERE n > 1), 0) FROM (
        SELECT count(*) AS n FROM payout_desk.run_rows r WHERE r.run_id = v.run_id AND r.version = v.version
        GROUP BY r.bank_code, r.account_number, r.amount) g),
    'sheetTotal', CASE WHEN jsonb_typeof(v.review -> 'controlTotal') = 'object' THEN jsonb_build_object(
        'sheet', v.review #>> '{controlTotal,sheet}',
        'difference', ((SELECT coalesce(sum(r.amount), 0) FROM payout_desk.run_rows r
                        WHERE r.run_id = v.run_id AND r.version = v.version)
                       - (v.review #>> '{controlTotal,sheet}')::numeric)::numeric(21, 2)::text) END,
    'noMatchOutside', CASE WHEN v.review IS NULL THEN 0 ELSE (
        SELECT count(*) FROM jsonb_array_elements(coalesce(v.review -> 'noMatch', '[]'::jsonb)) n
        WHERE NOT EXISTS (SELECT 1 FROM payout_desk.run_rows r
                          WHERE r.run_id = v.run_id AND r.version = v.version AND r.reference = n ->> 'reference')) END)
  FROM payout_desk.run_versions v
  WHERE v.run_id = p_run_id AND v.version = p_version
$$;
