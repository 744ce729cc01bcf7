-- Nobody who prepared or edited a run approves or rejects it (maker-checker, decision 38).
CREATE OR REPLACE FUNCTION payout_desk.require_checker(p_run_id text, p_me text, p_what text) RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM payout_desk.run_contributors WHERE run_id = p_run_id AND member = p_me) THEN
    PERFORM payout_desk.fail('PT403', 'own_run', format('%s prepared or edited run %s, so cannot %s it: another approver must.',
      p_me, p_run_id, p_what));
  END IF;
END
$$;
