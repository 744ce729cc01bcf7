-- The second admin's half of a change one admin asked for (decision 104): the approver or admin
-- role for a login, or a new password for an existing one. Neither the admin who asked nor the
-- login itself may confirm it; the owner (the database administrator) may.
CREATE OR REPLACE FUNCTION payout_desk.confirm_member_change(login text, change text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
  asked payout_desk.member_changes;
  held text[];
BEGIN
  PERFORM payout_desk.require_given(login, 'A member login is required.');
  PERFORM payout_desk.require_given(change, 'Say which change to confirm: approver, admin or password.');
  PERFORM pg_advisory_xact_lock(hashtext('payout_desk.member:' || login));
  SELECT * INTO asked FROM payout_desk.member_changes c
    WHERE c.login = confirm_member_change.login AND c.change = confirm_member_change.change FOR UPDATE;
  IF asked.login IS NULL THEN
    PERFORM payout_desk.fail('PT404', 'change_not_found', format('Nothing waits to be confirmed for %s (%s).', login, change));
  END IF;
  IF login = me THEN
    PERFORM payout_desk.fail('PT403', 'own_membership', 'An admin cannot change their own membership; another admin must.');
  END IF;
  IF asked.requested_by = me THEN
    PERFORM payout_desk.fail('PT403', 'own_request', format(
      'You asked for this change to %s; a second admin must confirm it.', login));
  END IF;
  IF change = 'password' THEN
    EXECUTE format('ALTER ROLE %I PASSWORD %L', login, asked.password_verifier);
  ELSE
    EXECUTE format('GRANT %I TO %I', 'payout_desk_' || change, login);
    SELECT m.roles INTO held FROM payout_desk.members m WHERE m.login = confirm_member_change.login AND m.active;
    held := coalesce(held, ARRAY[]::text[]) || change;
    INSERT INTO payout_desk.members (login, display_name, roles, active, added_by)
      VALUES (login, asked.display_name, (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(held) x), true, asked.requested_by)
      ON CONFLICT ON CONSTRAINT members_pkey DO UPDATE
        SET display_name = excluded.display_name, roles = excluded.roles, active = true;
  END IF;
  DELETE FROM payout_desk.member_changes c WHERE c.login = asked.login AND c.change = asked.change;
  PERFORM payout_desk.append_audit('member_change_confirmed', NULL, login,
    jsonb_build_object('change', change, 'requestedBy', asked.requested_by), NULL);
  RETURN jsonb_build_object('login', login, 'change', change, 'requestedBy', asked.requested_by, 'confirmedBy', me);
END
$$;
