-- 008: every desk and every run has its mode (sandbox, test or live), and the team's payment
-- memory is kept per mode (decision 61). A rehearsal (the Sandbox, a test key) never feeds Live's
-- "already paid", and a run rehearsed in one mode is never released in another.
--
-- * A desk says the mode of the profile it works in when it registers (register_desk with a third
--   argument; the app always gives it). A desk's mode never changes (a profile's mode is fixed when
--   it is made). Desks registered before 008, or from psql with two arguments, have none until
--   they say it.
-- * A run's mode is fixed once: by its preparer's review (the review has said its mode since 005),
--   or, for a run shared without one, by the first desk that claims anything of it. Every later
--   review must say the same mode, and every claim (new, or taken over) must come from a desk in
--   that mode: a desk without a mode claims nothing.
-- * The payment memory view carries the run's mode; a desk reads only its own mode's memory. Runs
--   released before 008 whose mode cannot be told (no review) are in no mode's memory.

ALTER TABLE payout_desk.desks ADD COLUMN mode text CHECK (mode IN ('sandbox', 'test', 'live'));
ALTER TABLE payout_desk.runs ADD COLUMN mode text CHECK (mode IN ('sandbox', 'test', 'live'));

-- Runs shared before 008 take the mode their first review said, where they have one.
UPDATE payout_desk.runs r SET mode = v.review ->> 'mode'
  FROM (SELECT DISTINCT ON (run_id) run_id, review FROM payout_desk.run_versions
         WHERE review IS NOT NULL ORDER BY run_id, version) v
  WHERE v.run_id = r.run_id AND v.review ->> 'mode' IN ('sandbox', 'test', 'live');

-- Registers this desk with the mode of the profile it works in (or is seen again).
CREATE FUNCTION payout_desk.register_desk(desk text, label text, mode text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
  known text;
BEGIN
  IF mode IS NULL OR mode NOT IN ('sandbox', 'test', 'live') THEN
    PERFORM payout_desk.fail('PT400', 'A desk''s mode is sandbox, test or live: the mode of the profile it pays with.');
  END IF;
  PERFORM payout_desk.register_desk(desk, label);
  SELECT d.mode INTO known FROM payout_desk.desks d WHERE d.desk_id = desk FOR UPDATE;
  IF known IS NULL THEN
    UPDATE payout_desk.desks d SET mode = register_desk.mode WHERE d.desk_id = desk;
    PERFORM payout_desk.append_audit('desk_mode_set', NULL, desk, jsonb_build_object('mode', mode), desk);
  ELSIF known <> mode THEN
    PERFORM payout_desk.fail('PT409', format('The desk %s works in %s mode; a desk''s mode never changes.', desk, known));
  END IF;
  RETURN jsonb_build_object('deskId', desk, 'member', me, 'mode', mode);
END
$$;

-- The review of a version says the run's mode: the first one fixes it, later ones must agree.
CREATE FUNCTION payout_desk.review_in_run_mode() RETURNS trigger
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
    PERFORM payout_desk.fail('PT409', format('Run %s pays in %s mode; a version cannot move it to %s mode.',
      NEW.run_id, run_mode, said));
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER run_versions_review_mode BEFORE UPDATE OF review ON payout_desk.run_versions
  FOR EACH ROW WHEN (NEW.review IS NOT NULL) EXECUTE FUNCTION payout_desk.review_in_run_mode();

-- A claim is made (or taken over) only by a desk in the run's mode; the first claim of a run
-- shared without a review fixes its mode.
CREATE FUNCTION payout_desk.claim_in_run_mode() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  desk_mode text;
  run_mode text;
BEGIN
  SELECT d.mode INTO desk_mode FROM payout_desk.desks d WHERE d.desk_id = NEW.holder_desk;
  IF desk_mode IS NULL THEN
    PERFORM payout_desk.fail('PT409', format(
      'The desk %s has not said which mode it pays in (sandbox, test or live): it claims nothing. Register it with its mode.',
      NEW.holder_desk));
  END IF;
  SELECT r.mode INTO run_mode FROM payout_desk.runs r WHERE r.run_id = NEW.run_id;
  IF run_mode IS NULL THEN
    UPDATE payout_desk.runs SET mode = desk_mode WHERE run_id = NEW.run_id;
  ELSIF run_mode <> desk_mode THEN
    PERFORM payout_desk.fail('PT409', format(
      'Run %s pays in %s mode and this desk works in %s mode: it is released only from a desk in %s mode.',
      NEW.run_id, run_mode, desk_mode, run_mode));
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER claims_in_run_mode BEFORE INSERT OR UPDATE OF holder_desk ON payout_desk.claims
  FOR EACH ROW EXECUTE FUNCTION payout_desk.claim_in_run_mode();

-- The payment memory as 003 made it, with the mode the run paid in (a column added at the end).
CREATE OR REPLACE VIEW payout_desk.team_payment_memory WITH (security_barrier) AS
  SELECT i.item_reference AS reference, r.bank_code, r.account_number, r.amount::text AS amount,
         payout_desk.iso(i.first_sent_at) AS sent_at, i.first_sent_at, run.label AS run_label, i.run_id, i.outcome,
         run.mode
  FROM payout_desk.claim_items i
  JOIN payout_desk.run_rows r ON r.run_id = i.run_id AND r.version = i.version AND r.position = i.position
  JOIN payout_desk.runs run ON run.run_id = i.run_id
  WHERE i.first_sent_at IS NOT NULL AND i.outcome IN ('sent', 'accepted', 'unknown', 'paid')
    AND payout_desk.is_member();

GRANT EXECUTE ON FUNCTION payout_desk.register_desk(text, text, text)
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
