-- The review of a version says the run's mode: the first one fixes it, later ones must agree.
CREATE OR REPLACE FUNCTION payout_desk.review_in_run_mode() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  said text := NEW.review ->> 'mode';
  run_mode text;
BEGIN
  IF said IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT r.mode INTO run_mode FROM payout_desk.runs r WHERE r.run_id = NEW.run_id FOR UPDATE;
  IF run_mode IS NULL THEN
    UPDATE payout_desk.runs SET mode = said WHERE run_id = NEW.run_id;
  ELSIF run_mode <> said THEN
    PERFORM payout_desk.fail('PT409', 'run_mode_differs', format('Run %s pays in %s mode; a version cannot move it to %s mode.',
      NEW.run_id, run_mode, said));
  END IF;
  RETURN NEW;
END
$$;
