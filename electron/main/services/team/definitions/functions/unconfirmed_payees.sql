-- The rows of a version held for a changed or shared account that no confirmation answers yet
-- (decision 135): a confirmation of the row's payee on the row's account, made in this run or an
-- earlier one. approve_run refuses while there is one; run_payee_checks shows them.
CREATE OR REPLACE FUNCTION payout_desk.unconfirmed_payees(p_run_id text, p_version integer)
  RETURNS TABLE (row_position integer, reference text, held_for text[])
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT p.position, r.reference, p.held_for
    FROM payout_desk.run_row_payees p
    JOIN payout_desk.run_rows r ON r.run_id = p.run_id AND r.version = p.version AND r.position = p.position
   WHERE p.run_id = p_run_id AND p.version = p_version AND cardinality(p.held_for) > 0
     AND NOT EXISTS (SELECT 1 FROM payout_desk.payee_confirmations c
                      WHERE c.payee_key = p.payee_key AND c.account_key = p.account_key)
   ORDER BY p.position
$$;
