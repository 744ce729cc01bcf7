-- 001: the team's foundation: group roles, a locked-down database, the team and its members,
-- thresholds, desks, and the hash-chained audit trail every later write appends to.
--
-- Runs as the owner role (the one that runs `npm run team:migrate`, never a desk), inside the
-- migrator's transaction. Every object here is owned by it. Desks (members in the group roles
-- below) get no INSERT, UPDATE or DELETE on any table: every write is a SECURITY DEFINER function
-- that checks session_user, and every read a view that shows nothing to a non-member.

-- ---- Group roles (cluster-wide; another team's database on the same server may have made them).
DO $$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['payout_desk_preparer', 'payout_desk_approver', 'payout_desk_admin'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = r) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN', r);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL; -- made at the same moment by another database's migration
      END;
    END IF;
  END LOOP;
END
$$;

-- ---- The database: only the three groups may connect; nobody but the owner creates anything.
DO $$
BEGIN
  IF pg_catalog.pg_encoding_to_char(
       (SELECT encoding FROM pg_catalog.pg_database WHERE datname = pg_catalog.current_database())
     ) <> 'UTF8' THEN
    RAISE EXCEPTION 'The team database must use the UTF8 encoding (CREATE DATABASE ... ENCODING ''UTF8'').';
  END IF;
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', pg_catalog.current_database());
  EXECUTE format(
    'GRANT CONNECT ON DATABASE %I TO payout_desk_preparer, payout_desk_approver, payout_desk_admin',
    pg_catalog.current_database()
  );
END
$$;
REVOKE ALL ON SCHEMA public FROM PUBLIC;
REVOKE ALL ON SCHEMA payout_desk FROM PUBLIC;
GRANT USAGE ON SCHEMA payout_desk TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
-- Functions the owner makes are not executable by PUBLIC; each is granted to the groups by name.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- ---- Small helpers used by hashes and answers.

-- One field of a hashed text: backslash, tab, newline and carriage return escaped, as in
-- shared/team/canonical-text.ts. Both sides must produce the same bytes.
CREATE FUNCTION payout_desk.hash_field(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT replace(replace(replace(replace(value, E'\\', E'\\\\'), E'\t', E'\\t'), E'\n', E'\\n'), E'\r', E'\\r')
$$;

CREATE FUNCTION payout_desk.sha256_hex(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT encode(sha256(convert_to(value, 'UTF8')), 'hex')
$$;

-- A time as ISO 8601 UTC with microseconds (hashed) or milliseconds (answers).
CREATE FUNCTION payout_desk.iso_us(ts timestamptz) RETURNS text
  LANGUAGE sql STABLE STRICT
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;

CREATE FUNCTION payout_desk.iso(ts timestamptz) RETURNS text
  LANGUAGE sql STABLE STRICT
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- Raises one of the team's errors. SQLSTATE class PT: PT400 bad input, PT401 not a member, PT403
-- not allowed (role, self-approval), PT404 not found, PT409 conflict (state, stale version),
-- PT412 content hash mismatch, PT423 claim held by another desk. The desk maps them to its codes.
CREATE FUNCTION payout_desk.fail(code text, message text) RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
END
$$;

-- ---- The team, its members, thresholds and desks.

CREATE TABLE payout_desk.team (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 80),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A member's roles in this team. A role counts only when the login is also in the matching group
-- role (payout_desk_<role>): the groups give the privileges, this table scopes them to this team,
-- so a second team's database on the same server cannot lend its approvers to this one.
CREATE TABLE payout_desk.members (
  login text PRIMARY KEY CHECK (login ~ '^[a-z][a-z0-9_]{2,62}$'),
  display_name text NOT NULL CHECK (length(btrim(display_name)) BETWEEN 1 AND 80),
  roles text[] NOT NULL CHECK (cardinality(roles) BETWEEN 1 AND 3 AND roles <@ ARRAY['preparer', 'approver', 'admin']),
  active boolean NOT NULL DEFAULT true,
  added_by text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now()
);

-- A run at or above the threshold of its currency needs two different approvers; a currency with
-- no threshold needs two for every run (the safe default).
CREATE TABLE payout_desk.thresholds (
  currency text PRIMARY KEY CHECK (currency ~ '^[A-Z]{3}$'),
  amount numeric(19, 2) NOT NULL CHECK (amount > 0),
  set_by text NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);

-- One installation of the app for one member: claims name the desk that holds them.
CREATE TABLE payout_desk.desks (
  desk_id text PRIMARY KEY CHECK (desk_id ~ '^[A-Za-z0-9-]{8,64}$'),
  member text NOT NULL REFERENCES payout_desk.members (login),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 120),
  first_seen timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION payout_desk.is_owner() RETURNS boolean
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT session_user::text = (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'payout_desk')
$$;

-- The roles session_user holds in this team right now (both the table and the group agree).
CREATE FUNCTION payout_desk.session_roles() RETURNS text[]
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT coalesce(array_agg(r ORDER BY r), '{}')
  FROM payout_desk.members m, unnest(m.roles) AS r
  WHERE m.login = session_user::text AND m.active
    AND pg_has_role(session_user, 'payout_desk_' || r, 'MEMBER')
$$;

CREATE FUNCTION payout_desk.is_member() RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT cardinality(payout_desk.session_roles()) > 0
$$;

-- Checks that session_user is an active member holding `wanted` (any role when null); returns the login.
CREATE FUNCTION payout_desk.require_role(wanted text) RETURNS text
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  held text[] := payout_desk.session_roles();
BEGIN
  IF cardinality(held) = 0 THEN
    PERFORM payout_desk.fail('PT401', format('%s is not an active member of this team.', session_user));
  END IF;
  IF wanted IS NOT NULL AND NOT wanted = ANY (held) THEN
    PERFORM payout_desk.fail('PT403', format('%s is not %s in this team (roles: %s).', session_user,
      CASE wanted WHEN 'admin' THEN 'an admin' WHEN 'approver' THEN 'an approver' ELSE 'a preparer' END,
      array_to_string(held, ', ')));
  END IF;
  RETURN session_user::text;
END
$$;

-- Admin functions: an active admin member, or the owner (who bootstraps the team from the command).
CREATE FUNCTION payout_desk.require_admin() RETURNS text
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF payout_desk.is_owner() THEN
    RETURN session_user::text;
  END IF;
  RETURN payout_desk.require_role('admin');
END
$$;

-- The desk a member names in a call: registered, and theirs.
CREATE FUNCTION payout_desk.require_desk(desk text) RETURNS text
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  owner_login text;
BEGIN
  SELECT member INTO owner_login FROM payout_desk.desks WHERE desk_id = desk;
  IF owner_login IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('The desk %s is not registered with this team.', coalesce(desk, '(none)')));
  END IF;
  IF owner_login <> session_user::text THEN
    PERFORM payout_desk.fail('PT403', format('The desk %s belongs to another member.', desk));
  END IF;
  RETURN desk;
END
$$;

-- ---- The audit trail: append-only and hash-chained like the desk's local journal.

CREATE TABLE payout_desk.audit_log (
  seq bigint PRIMARY KEY CHECK (seq >= 1),
  at timestamptz NOT NULL,
  actor text NOT NULL,
  desk_id text,
  kind text NOT NULL,
  run_id text,
  subject text,
  -- The details exactly as hashed (the text of a jsonb value).
  details text NOT NULL,
  prev_hash text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
);
CREATE INDEX audit_log_run ON payout_desk.audit_log (run_id, seq);

-- The chain's head: one row, locked by each append so entries get gapless numbers in order.
CREATE TABLE payout_desk.audit_head (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  seq bigint NOT NULL,
  hash text NOT NULL
);
INSERT INTO payout_desk.audit_head (seq, hash) VALUES (0, repeat('0', 64));

-- The text an entry's hash is taken over (shared/team/audit-chain.ts builds the same).
CREATE FUNCTION payout_desk.audit_hash(
  seq bigint, at_text text, actor text, desk_id text, kind text, run_id text, subject text,
  details text, prev_hash text
) RETURNS text
  LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT payout_desk.sha256_hex(concat_ws(E'\n',
    'payout-desk audit v1', seq::text, at_text,
    payout_desk.hash_field(actor), payout_desk.hash_field(coalesce(desk_id, '')),
    payout_desk.hash_field(kind), payout_desk.hash_field(coalesce(run_id, '')),
    payout_desk.hash_field(coalesce(subject, '')), payout_desk.hash_field(details), prev_hash))
$$;

-- Appends one entry in the caller's transaction and tells every listening desk (NOTIFY is sent
-- at commit, so a rolled-back change is never announced).
CREATE FUNCTION payout_desk.append_audit(kind text, run_id text, subject text, details jsonb, desk_id text)
  RETURNS bigint
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  head record;
  next_seq bigint;
  at_time timestamptz;
  details_text text := coalesce(details, '{}'::jsonb)::text;
  entry_hash text;
BEGIN
  SELECT h.seq, h.hash INTO head FROM payout_desk.audit_head h FOR UPDATE;
  next_seq := head.seq + 1;
  at_time := clock_timestamp();
  entry_hash := payout_desk.audit_hash(next_seq, payout_desk.iso_us(at_time), session_user::text, desk_id, kind,
    run_id, subject, details_text, head.hash);
  INSERT INTO payout_desk.audit_log (seq, at, actor, desk_id, kind, run_id, subject, details, prev_hash, hash)
    VALUES (next_seq, at_time, session_user::text, desk_id, kind, run_id, subject, details_text, head.hash, entry_hash);
  UPDATE payout_desk.audit_head SET seq = next_seq, hash = entry_hash;
  PERFORM pg_notify('payout_desk_events', json_build_object(
    'seq', next_seq, 'kind', kind, 'runId', run_id, 'subject', subject,
    'actor', session_user::text, 'at', payout_desk.iso(at_time))::text);
  RETURN next_seq;
END
$$;

-- Second line of defence: nobody rewrites or removes an entry (desk roles have no privilege to
-- try; this stops the owner's own mistakes too, unless it disables the trigger on purpose).
CREATE FUNCTION payout_desk.refuse_audit_change() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'PT403', MESSAGE = 'The audit trail is append-only: entries are never changed or removed.';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON payout_desk.audit_log
  FOR EACH ROW EXECUTE FUNCTION payout_desk.refuse_audit_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON payout_desk.audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION payout_desk.refuse_audit_change();

-- Checks every link; names the first broken one. Any member may ask.
CREATE FUNCTION payout_desk.audit_verify() RETURNS jsonb
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  entry record;
  expected bigint := 1;
  prev text := repeat('0', 64);
  head record;
BEGIN
  PERFORM payout_desk.require_role(NULL);
  FOR entry IN SELECT * FROM payout_desk.audit_log ORDER BY seq LOOP
    IF entry.seq <> expected THEN
      RETURN jsonb_build_object('ok', false, 'checked', expected - 1, 'firstBroken', jsonb_build_object(
        'seq', expected, 'reason', format('entry %s is missing (the next one is %s)', expected, entry.seq)));
    END IF;
    IF entry.prev_hash <> prev THEN
      RETURN jsonb_build_object('ok', false, 'checked', expected - 1, 'firstBroken', jsonb_build_object(
        'seq', entry.seq, 'reason', 'its link to the entry before it is broken'));
    END IF;
    IF entry.hash <> payout_desk.audit_hash(entry.seq, payout_desk.iso_us(entry.at), entry.actor, entry.desk_id,
        entry.kind, entry.run_id, entry.subject, entry.details, entry.prev_hash) THEN
      RETURN jsonb_build_object('ok', false, 'checked', expected - 1, 'firstBroken', jsonb_build_object(
        'seq', entry.seq, 'reason', 'its content does not match its hash'));
    END IF;
    prev := entry.hash;
    expected := expected + 1;
  END LOOP;
  SELECT h.seq, h.hash INTO head FROM payout_desk.audit_head h;
  IF head.seq <> expected - 1 OR head.hash <> prev THEN
    RETURN jsonb_build_object('ok', false, 'checked', expected - 1, 'firstBroken', jsonb_build_object(
      'seq', expected, 'reason', format('the trail ends at entry %s but its head is entry %s: entries were removed',
        expected - 1, head.seq)));
  END IF;
  RETURN jsonb_build_object('ok', true, 'checked', expected - 1, 'headHash', prev);
END
$$;

-- ---- Who am I, and the desk I use.

CREATE FUNCTION payout_desk.whoami() RETURNS jsonb
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
BEGIN
  RETURN jsonb_build_object(
    'team', (SELECT jsonb_build_object('name', t.name) FROM payout_desk.team t),
    'member', (SELECT jsonb_build_object('login', m.login, 'displayName', m.display_name,
      'roles', to_jsonb(payout_desk.session_roles())) FROM payout_desk.members m WHERE m.login = me),
    'schemaVersion', (SELECT max(version) FROM payout_desk.schema_migrations));
END
$$;

CREATE FUNCTION payout_desk.register_desk(desk text, label text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
  holder text;
BEGIN
  IF desk IS NULL OR desk !~ '^[A-Za-z0-9-]{8,64}$' THEN
    PERFORM payout_desk.fail('PT400', 'A desk id is 8 to 64 letters, digits or dashes.');
  END IF;
  SELECT member INTO holder FROM payout_desk.desks d WHERE d.desk_id = desk FOR UPDATE;
  IF holder IS NULL THEN
    INSERT INTO payout_desk.desks (desk_id, member, label) VALUES (desk, me, left(coalesce(nullif(btrim(label), ''), desk), 120));
    PERFORM payout_desk.append_audit('desk_registered', NULL, desk, jsonb_build_object('label', label), desk);
  ELSIF holder <> me THEN
    PERFORM payout_desk.fail('PT403', format('The desk %s belongs to another member.', desk));
  ELSE
    UPDATE payout_desk.desks d SET last_seen = now() WHERE d.desk_id = desk;
  END IF;
  RETURN jsonb_build_object('deskId', desk, 'member', me);
END
$$;

-- ---- Administration: the team's name, members and thresholds.

CREATE FUNCTION payout_desk.set_team_name(name text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  PERFORM payout_desk.require_admin();
  IF name IS NULL OR length(btrim(name)) NOT BETWEEN 1 AND 80 THEN
    PERFORM payout_desk.fail('PT400', 'A team name is 1 to 80 characters.');
  END IF;
  INSERT INTO payout_desk.team (name) VALUES (btrim(name))
    ON CONFLICT (singleton) DO UPDATE SET name = excluded.name;
  PERFORM payout_desk.append_audit('team_named', NULL, NULL, jsonb_build_object('name', btrim(name)), NULL);
  RETURN jsonb_build_object('name', btrim(name));
END
$$;

CREATE FUNCTION payout_desk.set_threshold(currency text, amount text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
BEGIN
  IF currency IS NULL OR currency !~ '^[A-Z]{3}$' THEN
    PERFORM payout_desk.fail('PT400', 'A currency is three capital letters (NGN, KES).');
  END IF;
  IF amount IS NULL THEN
    DELETE FROM payout_desk.thresholds t WHERE t.currency = set_threshold.currency;
  ELSIF amount !~ '^(0|[1-9][0-9]{0,16})\.[0-9]{2}$' OR amount::numeric <= 0 THEN
    PERFORM payout_desk.fail('PT400', 'A threshold is a positive amount with two decimals, such as 5000000.00.');
  ELSE
    INSERT INTO payout_desk.thresholds (currency, amount, set_by) VALUES (currency, amount::numeric, me)
      ON CONFLICT ON CONSTRAINT thresholds_pkey
      DO UPDATE SET amount = excluded.amount, set_by = excluded.set_by, set_at = now();
  END IF;
  PERFORM payout_desk.append_audit('threshold_set', NULL, currency,
    jsonb_build_object('currency', currency, 'amount', amount), NULL);
  RETURN jsonb_build_object('currency', currency, 'amount', amount);
END
$$;

-- Adds a member or changes an existing login's roles. The password arrives as a SCRAM-SHA-256
-- verifier made on the admin's desk (electron/main/services/team/scram-verifier.ts): the plain
-- password never reaches the server, its logs or pg_stat_activity. Runs as the owner, whose
-- CREATEROLE it needs; it touches only plain login roles and the three groups.
CREATE FUNCTION payout_desk.add_member(login text, display_name text, roles text[], password_verifier text)
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
    PERFORM payout_desk.fail('PT400', 'A member login is 3 to 63 lower-case letters, digits or _, starting with a letter.');
  END IF;
  IF login LIKE 'payout\_desk\_%' OR login LIKE 'pg\_%' THEN
    PERFORM payout_desk.fail('PT400', format('%s is a reserved name.', login));
  END IF;
  IF display_name IS NULL OR length(btrim(display_name)) NOT BETWEEN 1 AND 80 THEN
    PERFORM payout_desk.fail('PT400', 'A display name is 1 to 80 characters.');
  END IF;
  IF roles IS NULL OR cardinality(roles) = 0 OR NOT roles <@ ARRAY['preparer', 'approver', 'admin'] THEN
    PERFORM payout_desk.fail('PT400', 'Roles are one or more of preparer, approver, admin.');
  END IF;
  IF login = me THEN
    PERFORM payout_desk.fail('PT403', 'An admin cannot change their own membership; another admin must.');
  END IF;
  IF password_verifier IS NOT NULL
     AND password_verifier !~ '^SCRAM-SHA-256\$[0-9]+:[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}:[A-Za-z0-9+/]+={0,2}$' THEN
    PERFORM payout_desk.fail('PT400', 'The password must arrive as a SCRAM-SHA-256 verifier, never as plain text.');
  END IF;
  SELECT rolname, rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolcanlogin
    INTO existing FROM pg_roles WHERE rolname = login;
  IF existing.rolname IS NULL THEN
    IF password_verifier IS NULL THEN
      PERFORM payout_desk.fail('PT400', format('%s is a new login: give it a password.', login));
    END IF;
    EXECUTE format('CREATE ROLE %I LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD %L',
      login, password_verifier);
  ELSE
    IF existing.rolsuper OR existing.rolcreaterole OR existing.rolcreatedb OR existing.rolreplication
       OR existing.rolbypassrls OR NOT existing.rolcanlogin
       OR login = (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'payout_desk') THEN
      PERFORM payout_desk.fail('PT403', format('%s is not a plain login role; it cannot be made a member.', login));
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

-- Removes a member from the team (their login stays, as another team may use it; the group
-- memberships this team gave stay too, but every function checks this table, so they count for nothing here).
CREATE FUNCTION payout_desk.set_member_active(login text, active boolean) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
BEGIN
  IF login = me THEN
    PERFORM payout_desk.fail('PT403', 'An admin cannot change their own membership; another admin must.');
  END IF;
  UPDATE payout_desk.members m SET active = set_member_active.active WHERE m.login = set_member_active.login;
  IF NOT FOUND THEN
    PERFORM payout_desk.fail('PT404', format('%s is not a member of this team.', login));
  END IF;
  PERFORM payout_desk.append_audit('member_active_set', NULL, login, jsonb_build_object('active', active), NULL);
  RETURN jsonb_build_object('login', login, 'active', active);
END
$$;

-- ---- Reads: views owned by the owner, showing rows only to active members.

CREATE VIEW payout_desk.team_members WITH (security_barrier) AS
  SELECT m.login, m.display_name, m.roles, m.active, payout_desk.iso(m.added_at) AS added_at
  FROM payout_desk.members m
  WHERE payout_desk.is_member();

CREATE VIEW payout_desk.team_thresholds WITH (security_barrier) AS
  SELECT t.currency, t.amount::text AS amount, t.set_by, payout_desk.iso(t.set_at) AS set_at
  FROM payout_desk.thresholds t
  WHERE payout_desk.is_member();

CREATE VIEW payout_desk.audit_trail WITH (security_barrier) AS
  SELECT a.seq, payout_desk.iso_us(a.at) AS at, a.actor, a.desk_id, a.kind, a.run_id, a.subject, a.details,
         a.prev_hash, a.hash
  FROM payout_desk.audit_log a
  WHERE payout_desk.is_member();

GRANT SELECT ON payout_desk.team_members, payout_desk.team_thresholds, payout_desk.audit_trail
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
-- Views call these as the reader, so readers may execute them (they reveal nothing by themselves).
GRANT EXECUTE ON FUNCTION payout_desk.whoami(), payout_desk.register_desk(text, text), payout_desk.audit_verify(),
  payout_desk.is_member(), payout_desk.iso(timestamptz), payout_desk.iso_us(timestamptz)
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
GRANT EXECUTE ON FUNCTION payout_desk.set_team_name(text), payout_desk.set_threshold(text, text),
  payout_desk.add_member(text, text, text[], text), payout_desk.set_member_active(text, boolean)
  TO payout_desk_admin;
