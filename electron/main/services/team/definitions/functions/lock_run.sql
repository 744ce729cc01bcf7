-- The run, locked until commit; refused when there is none.
CREATE OR REPLACE FUNCTION payout_desk.lock_run(p_run_id text) RETURNS payout_desk.runs
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  found payout_desk.runs;
BEGIN
  SELECT * INTO found FROM payout_desk.runs WHERE run_id = p_run_id FOR UPDATE;
  IF found.run_id IS NULL THEN
    PERFORM payout_desk.fail('PT404', 'run_not_found', format('There is no run %s in this team.', coalesce(p_run_id, '(none)')));
  END IF;
  RETURN found;
END
$$;
