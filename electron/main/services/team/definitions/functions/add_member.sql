-- Adds a member or changes the roles of one of the team's own logins (decision 104). The password
-- arrives as a SCRAM-SHA-256 verifier made on the admin's desk (electron/main/services/team/
-- scram-verifier.ts): the plain password never reaches the server, its logs or pg_stat_activity.
-- Runs as the owner, whose CREATEROLE it needs, so it reaches only the logins this team created
-- (team_logins): never another team's members, nor any other login on the server.
-- An admin gives the preparer role at once; the approver or admin role, and a new password for a
-- login that exists, wait in member_changes until a second admin confirms them
-- (confirm_member_change). The owner, who bootstraps the team from team:migrate, needs no second.
CREATE OR REPLACE FUNCTION payout_desk.add_member(login text, display_name text, roles text[], password_verifier text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
  by_owner boolean := payout_desk.is_owner();
  existing record;
  held text[];
  now_roles text[] := ARRAY[]::text[];
  waiting text[] := ARRAY[]::text[];
  r text;
BEGIN
  IF login IS NULL OR login !~ '^[a-z][a-z0-9_]{2,62}$' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A member login is 3 to 63 lower-case letters, digits or _, starting with a letter.');
  END IF;
  IF login LIKE 'payout\_desk\_%' OR login LIKE 'pg\_%' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format('%s is a reserved name.', login));
  END IF;
  IF display_name IS NULL OR length(btrim(display_name)) NOT BETWEEN 1 AND 80 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A display name is 1 to 80 characters.');
  END IF;
  IF roles IS NULL OR cardinality(roles) = 0 OR NOT roles <@ ARRAY['preparer', 'approver', 'admin'] THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'Roles are one or more of preparer, approver, admin.');
  END IF;
  IF login = me THEN
    PERFORM payout_desk.fail('PT403', 'own_membership', 'An admin cannot change their own membership; another admin must.');
  END IF;
  IF password_verifier IS NOT NULL
     AND password_verifier !~ '^SCRAM-SHA-256\$[0-9]+:[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}:[A-Za-z0-9+/]+={0,2}$' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'The password must arrive as a SCRAM-SHA-256 verifier, never as plain text.');
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('payout_desk.member:' || login));
  SELECT rolname, rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolcanlogin
    INTO existing FROM pg_roles WHERE rolname = login;
  IF existing.rolname IS NULL THEN
    IF password_verifier IS NULL THEN
      PERFORM payout_desk.fail('PT400', 'missing_argument', format('%s is a new login: give it a password.', login));
    END IF;
    EXECUTE format('CREATE ROLE %I LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD %L',
      login, password_verifier);
    INSERT INTO payout_desk.team_logins (login, created_by) VALUES (login, me)
      ON CONFLICT ON CONSTRAINT team_logins_pkey DO NOTHING;
  ELSE
    IF existing.rolsuper OR existing.rolcreaterole OR existing.rolcreatedb OR existing.rolreplication
       OR existing.rolbypassrls OR NOT existing.rolcanlogin
       OR login = (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'payout_desk') THEN
      PERFORM payout_desk.fail('PT403', 'not_plain_login', format('%s is not a plain login role; it cannot be made a member.', login));
    END IF;
    IF NOT EXISTS (SELECT 1 FROM payout_desk.team_logins t WHERE t.login = add_member.login) THEN
      PERFORM payout_desk.fail('PT403', 'login_not_of_team', format(
        '%s is a login this team did not create: an admin changes only the team''s own logins. Choose another login name.', login));
    END IF;
    IF password_verifier IS NOT NULL THEN
      IF by_owner THEN
        EXECUTE format('ALTER ROLE %I PASSWORD %L', login, password_verifier);
      ELSE
        waiting := array_append(waiting, 'password');
      END IF;
    END IF;
  END IF;
  SELECT m.roles INTO held FROM payout_desk.members m WHERE m.login = add_member.login AND m.active;
  FOREACH r IN ARRAY ARRAY['preparer', 'approver', 'admin'] LOOP
    IF r = ANY (roles) THEN
      IF by_owner OR r = 'preparer' OR r = ANY (coalesce(held, ARRAY[]::text[])) THEN
        now_roles := now_roles || r;
        EXECUTE format('GRANT %I TO %I', 'payout_desk_' || r, login);
      ELSE
        waiting := waiting || r;
      END IF;
    END IF;
  END LOOP;
  -- A role no longer asked for is not waiting any more; what is asked replaces what was.
  DELETE FROM payout_desk.member_changes c
    WHERE c.login = add_member.login AND c.change IN ('approver', 'admin') AND NOT c.change = ANY (waiting);
  FOREACH r IN ARRAY waiting LOOP
    INSERT INTO payout_desk.member_changes (login, change, display_name, password_verifier, requested_by)
      VALUES (login, r, btrim(display_name), CASE WHEN r = 'password' THEN password_verifier END, me)
      ON CONFLICT ON CONSTRAINT member_changes_pkey DO UPDATE
        SET display_name = excluded.display_name, password_verifier = excluded.password_verifier,
            requested_by = excluded.requested_by, requested_at = now();
    PERFORM payout_desk.append_audit('member_change_requested', NULL, login,
      jsonb_build_object('change', r, 'displayName', btrim(display_name)), NULL);
  END LOOP;
  IF cardinality(now_roles) > 0 THEN
    INSERT INTO payout_desk.members (login, display_name, roles, active, added_by)
      VALUES (login, btrim(display_name), (SELECT array_agg(x ORDER BY x) FROM unnest(now_roles) x), true, me)
      ON CONFLICT ON CONSTRAINT members_pkey DO UPDATE
        SET display_name = excluded.display_name, roles = excluded.roles, active = true;
    PERFORM payout_desk.append_audit('member_set', NULL, login,
      jsonb_build_object('displayName', btrim(display_name), 'roles', to_jsonb(now_roles)), NULL);
  END IF;
  RETURN jsonb_build_object('login', login, 'roles', to_jsonb(now_roles), 'waiting', to_jsonb(waiting));
END
$$;
