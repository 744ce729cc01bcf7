-- 010: an admin reaches no login beyond the team, and no one gives the approver or admin role (or
-- resets a login's password) alone (decision 104).
--
-- team_logins: the login roles this team's add_member created (or, for a database upgraded from
-- 009, the logins that were already its members). add_member changes no other role: the owner's
-- CREATEROLE would otherwise let an admin set the password of, and grant the groups to, any plain
-- login on the server (another team's members, a stray application login).
CREATE TABLE payout_desk.team_logins (
  login text PRIMARY KEY CHECK (login ~ '^[a-z][a-z0-9_]{2,62}$'),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO payout_desk.team_logins (login, created_by, created_at)
  SELECT login, added_by, added_at FROM payout_desk.members;

-- member_changes: what one admin asked and a second admin must confirm before it takes effect:
-- the approver or admin role for a login, or a new password for a login that exists already.
-- A verifier waiting here is the SCRAM-SHA-256 verifier pg_authid would hold, never a password.
CREATE TABLE payout_desk.member_changes (
  login text NOT NULL REFERENCES payout_desk.team_logins (login),
  change text NOT NULL CHECK (change IN ('approver', 'admin', 'password')),
  display_name text NOT NULL CHECK (length(btrim(display_name)) BETWEEN 1 AND 80),
  password_verifier text CHECK ((change = 'password') = (password_verifier IS NOT NULL)),
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT member_changes_pkey PRIMARY KEY (login, change)
);

-- The five-argument create_run and revise_run (no review argument) are gone: a version is shared
-- through the six-argument calls only (definitions/functions/create_run.sql, revise_run.sql),
-- whose review is the desk's or an explicit NULL from psql, shown beside what the database
-- computes itself (decision 105).
DROP FUNCTION IF EXISTS payout_desk.create_run(text, text, text, jsonb, text);
DROP FUNCTION IF EXISTS payout_desk.revise_run(text, integer, text, jsonb, text);
