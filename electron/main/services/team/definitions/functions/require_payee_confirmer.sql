-- Nobody who prepared or edited a run confirms a changed or shared account of it (decision 135,
-- the maker-checker of decision 38 applied to decision 124's confirmations): the payee_confirmations
-- trigger calls it for every row written, whoever writes it.
CREATE OR REPLACE FUNCTION payout_desk.require_payee_confirmer(p_run_id text, p_me text) RETURNS void
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM payout_desk.run_contributors WHERE run_id = p_run_id AND member = p_me)
     OR EXISTS (SELECT 1 FROM payout_desk.runs WHERE run_id = p_run_id AND prepared_by = p_me) THEN
    PERFORM payout_desk.fail('PT403', 'own_run_confirmation', format(
      '%s prepared or edited run %s, so cannot confirm a changed or shared account in it: another member of the team must confirm it.',
      p_me, p_run_id));
  END IF;
END
$$;
