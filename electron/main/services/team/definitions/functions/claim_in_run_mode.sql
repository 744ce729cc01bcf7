-- A claim is made (or taken over) only by a desk in the run's mode; the first claim of a run
-- shared without a review fixes its mode.
CREATE OR REPLACE FUNCTION payout_desk.claim_in_run_mode() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  desk_mode text;
  run_mode text;
BEGIN
  SELECT d.mode INTO desk_mode FROM payout_desk.desks d WHERE d.desk_id = NEW.holder_desk;
  IF desk_mode IS NULL THEN
    PERFORM payout_desk.fail('PT409', 'desk_mode_unknown', format(
      'The desk %s has not said which mode it pays in (sandbox, test or live): it claims nothing. Register it with its mode.',
      NEW.holder_desk));
  END IF;
  SELECT r.mode INTO run_mode FROM payout_desk.runs r WHERE r.run_id = NEW.run_id;
  IF run_mode IS NULL THEN
    UPDATE payout_desk.runs SET mode = desk_mode WHERE run_id = NEW.run_id;
  ELSIF run_mode <> desk_mode THEN
    PERFORM payout_desk.fail('PT409', 'run_mode_differs', format(
      'Run %s pays in %s mode and this desk works in %s mode: it is released only from a desk in %s mode.',
      NEW.run_id, run_mode, desk_mode, run_mode));
  END IF;
  RETURN NEW;
END
$$;
