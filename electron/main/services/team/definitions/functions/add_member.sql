-- Adds a member or changes an existing login's roles. The password arrives as a SCRAM-SHA-256
-- verifier made on the admin's desk (electron/main/services/team/scram-verifier.ts): the plain
-- password never reaches the server, its logs or pg_stat_activity. Runs as the owner, whose
-- CREATEROLE it needs; it touches only plain login roles and the three groups.
CREATE OR REPLACE FUNCTION payout_desk.add_member(login text, display_name text, roles text[], password_verifier text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
  existing record;
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
  SELECT rolname, rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolcanlogin
    INTO existing FROM pg_roles WHERE rolname = login;
  IF existing.rolname IS NULL THEN
    IF password_verifier IS NULL THEN
      PERFORM payout_desk.fail('PT400', 'missing_argument', format('%s is a new login: give it a password.', login));
    END IF;
    EXECUTE format('CREATE ROLE %I LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD %L',
      login, password_verifier);
  ELSE
    IF existing.rolsuper OR existing.rolcreaterole OR existing.rolcreatedb OR existing.rolreplication
       OR existing.rolbypassrls OR NOT existing.rolcanlogin
       OR login = (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'payout_desk') THEN
      PERFORM payout_desk.fail('PT403', 'not_plain_login', format('%s is not a plain login role; it cannot be made a member.', login));
    END IF;
    IF password_verifier IS NOT NULL THEN
      EXECUTE format('ALTER ROLE %I PASSWORD %L', login, password_verifier);
    END IF;
  END IF;
  FOREACH r IN ARRAY ARRAY['preparer', 'approver', 'admin'] LOOP
    IF r = ANY (roles) THEN
      EXECUTE format('GRANT %I TO %I', 'payout_desk_' || r, login);
    END IF;
  END LOOP;
  INSERT INTO payout_desk.members (login, display_name, roles, active, added_by)
    VALUES (login, btrim(display_name), (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(roles) x), true, me)
    ON CONFLICT ON CONSTRAINT members_pkey DO UPDATE
      SET display_name = excluded.display_name, roles = excluded.roles, active = true;
  PERFORM payout_desk.append_audit('member_set', NULL, login,
    jsonb_build_object('displayName', btrim(display_name), 'roles', to_jsonb(roles)), NULL);
  RETURN jsonb_build_object('login', login, 'roles', to_jsonb(roles));
END
$$;
