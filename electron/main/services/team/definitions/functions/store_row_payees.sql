-- The payee checks the sharing desk found on a version's rows (decision 135), stored with the
-- version by store_version; called by it, granted to no one. `p_payees` is the content's "payees":
-- NULL (a desk before 011, or psql) stores nothing and leaves the version marked as shared without
-- payee checks; an array (empty when nothing was found) lists each flagged row, or row with a
-- payee id, by its position: the payee's key, the account's key, the payee id, and the flags as
-- {kind, words}. Which flags hold the row is worked out here from the kinds, never taken from
-- the desk: a changed or shared account holds it until a member confirms it (confirm_payee).
CREATE OR REPLACE FUNCTION payout_desk.store_row_payees(p_run_id text, p_version integer, p_payees jsonb,
    p_rows integer)
  RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_bad record;
  v_duplicate integer;
BEGIN
  IF p_payees IS NULL OR jsonb_typeof(p_payees) = 'null' THEN
    RETURN;
  END IF;
  IF jsonb_typeof(p_payees) <> 'array' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'The run''s payee checks ("payees") must be a list.');
  END IF;
  SELECT x.ord, x.problem INTO v_bad FROM (
    SELECT e.ord, CASE
      WHEN jsonb_typeof(e.value) <> 'object' THEN 'is not an object'
      WHEN jsonb_typeof(e.value -> 'position') IS DISTINCT FROM 'number'
        OR (e.value ->> 'position') !~ '^[1-9][0-9]{0,5}$'
        OR (e.value ->> 'position')::integer > p_rows THEN format('position must be a row of the run (1 to %s)', p_rows)
      WHEN jsonb_typeof(e.value -> 'payeeKey') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'payeeKey') NOT BETWEEN 1 AND 300 THEN 'payeeKey must be 1 to 300 characters'
      WHEN jsonb_typeof(e.value -> 'accountKey') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'accountKey') NOT BETWEEN 1 AND 120 THEN 'accountKey must be 1 to 120 characters'
      WHEN e.value ? 'payeeId' AND (jsonb_typeof(e.value -> 'payeeId') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'payeeId') NOT BETWEEN 1 AND 100) THEN 'payeeId must be 1 to 100 characters'
      WHEN jsonb_typeof(e.value -> 'tripwires') IS DISTINCT FROM 'array'
        OR octet_length((e.value -> 'tripwires')::text) > 8192 THEN 'tripwires must be a list (at most 8 KB)'
      WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(e.value -> 'tripwires') t
                   WHERE jsonb_typeof(t) <> 'object'
                      OR (t ->> 'kind') IS NULL
                      OR (t ->> 'kind') NOT IN ('account_changed', 'new_account', 'shared_account', 'name_drift',
                                                'unusual_amount')
                      OR jsonb_typeof(t -> 'words') IS DISTINCT FROM 'string'
                      OR length(t ->> 'words') NOT BETWEEN 1 AND 500)
        THEN 'each tripwire is {kind, words}: a known kind and 1 to 500 characters of words'
    END AS problem
    FROM jsonb_array_elements(p_payees) WITH ORDINALITY AS e(value, ord)
  ) x WHERE x.problem IS NOT NULL ORDER BY x.ord LIMIT 1;
  IF v_bad.ord IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format('Payee check %s of the run: %s.', v_bad.ord, v_bad.problem));
  END IF;
  SELECT (e.value ->> 'position')::integer INTO v_duplicate
    FROM jsonb_array_elements(p_payees) AS e(value)
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
  IF v_duplicate IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format('Row %s of the run has more than one payee check.', v_duplicate));
  END IF;
  INSERT INTO payout_desk.run_row_payees (run_id, version, position, payee_id, payee_key, account_key, tripwires,
      held_for)
    SELECT p_run_id, p_version, (e.value ->> 'position')::integer, e.value ->> 'payeeId', e.value ->> 'payeeKey',
      e.value ->> 'accountKey', e.value -> 'tripwires',
      ARRAY(SELECT DISTINCT t ->> 'kind' FROM jsonb_array_elements(e.value -> 'tripwires') t
            WHERE t ->> 'kind' IN ('account_changed', 'shared_account') ORDER BY 1)
    FROM jsonb_array_elements(p_payees) AS e(value);
  UPDATE payout_desk.run_versions SET payee_checks_reported = true WHERE run_id = p_run_id AND version = p_version;
END
$$;
