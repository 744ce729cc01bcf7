-- Registers a desk for the calling member, or notes that it was seen again. A desk id is the
-- member's own: another member's desk is refused.
CREATE OR REPLACE FUNCTION payout_desk.register_desk(desk text, label text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
  holder text;
BEGIN
  IF desk IS NULL OR desk !~ '^[A-Za-z0-9-]{8,64}$' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A desk id is 8 to 64 letters, digits or dashes.');
  END IF;
  SELECT member INTO holder FROM payout_desk.desks d WHERE d.desk_id = desk FOR UPDATE;
  IF holder IS NULL THEN
    INSERT INTO payout_desk.desks (desk_id, member, label) VALUES (desk, me, left(coalesce(nullif(btrim(label), ''), desk), 120));
    PERFORM payout_desk.append_audit('desk_registered', NULL, desk, jsonb_build_object('label', label), desk);
  ELSIF holder <> me THEN
    PERFORM payout_desk.fail('PT403', 'desk_of_another_member', format('The desk %s belongs to another member.', desk));
  ELSE
    UPDATE payout_desk.desks d SET last_seen = now() WHERE d.desk_id = desk;
  END IF;
  RETURN jsonb_build_object('deskId', desk, 'member', me);
END
$$;

-- Registers this desk with the mode of the profile it works in (or is seen again). A desk's mode
-- never changes (decision 61); the two-argument form (psql) leaves it unsaid.
CREATE OR REPLACE FUNCTION payout_desk.register_desk(desk text, label text, mode text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
  known text;
BEGIN
  IF mode IS NULL OR mode NOT IN ('sandbox', 'test', 'live') THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A desk''s mode is sandbox, test or live: the mode of the profile it pays with.');
  END IF;
  PERFORM payout_desk.register_desk(desk, label);
  SELECT d.mode INTO known FROM payout_desk.desks d WHERE d.desk_id = desk FOR UPDATE;
  IF known IS NULL THEN
    UPDATE payout_desk.desks d SET mode = register_desk.mode WHERE d.desk_id = desk;
    PERFORM payout_desk.append_audit('desk_mode_set', NULL, desk, jsonb_build_object('mode', mode), desk);
  ELSIF known <> mode THEN
    PERFORM payout_desk.fail('PT409', 'desk_mode_fixed', format('The desk %s works in %s mode; a desk''s mode never changes.', desk, known));
  END IF;
  RETURN jsonb_build_object('deskId', desk, 'member', me, 'mode', mode);
END
$$;
