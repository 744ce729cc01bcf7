-- 008 (baseline): the team schema's tables, types and roles as migrations 001 to 008 left them,
-- squashed into one file before any team database was deployed (decision 85). A database made by
-- those eight migrations is recognised by their checksums and recorded as at this baseline
-- (team-migrator.ts); a new one runs this file.
--
-- Migrations hold what is kept: tables, types, roles and data. Every function, view and trigger is
-- defined once in ../definitions/, applied after the migrations in the same transaction, and every
-- privilege is in ../definitions/grants.sql. A migration never calls a function of the schema.
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

-- ---- The database: UTF8 (hashes are taken over UTF-8 text); its privileges are in grants.sql.
DO $$
BEGIN
  IF pg_catalog.pg_encoding_to_char(
       (SELECT encoding FROM pg_catalog.pg_database WHERE datname = pg_catalog.current_database())
     ) <> 'UTF8' THEN
    RAISE EXCEPTION 'The team database must use the UTF8 encoding (CREATE DATABASE ... ENCODING ''UTF8'').';
  END IF;
END
$$;
-- Functions the owner makes are not executable by PUBLIC; each is granted to the groups by name.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

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
  last_seen timestamptz NOT NULL DEFAULT now(),
  -- The mode of the profile the desk pays with, said when it registers and never changed (decision 61).
  mode text CHECK (mode IN ('sandbox', 'test', 'live'))
);

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

-- ---- Runs: a run's content is versioned. Every edit makes a new version whose content hash (the
-- same text and SHA-256 as shared/team/run-content.ts) is computed from the stored rows and must
-- equal the hash the desk computed. An approval binds to one version's hash; an edit voids it.

CREATE TABLE payout_desk.runs (
  run_id text PRIMARY KEY CHECK (run_id ~ '^[A-Za-z0-9._-]{1,80}$'),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 200),
  prepared_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  state text NOT NULL CHECK (state IN ('draft', 'awaiting_approval', 'approved', 'rejected', 'releasing', 'completed')),
  current_version integer NOT NULL CHECK (current_version >= 1),
  -- Fixed once: by the first review, or by the first claim of a run shared without one (decision 61).
  mode text CHECK (mode IN ('sandbox', 'test', 'live'))
);

CREATE TABLE payout_desk.run_versions (
  run_id text NOT NULL REFERENCES payout_desk.runs (run_id),
  version integer NOT NULL CHECK (version >= 1),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  merchant_bears_cost boolean NOT NULL,
  description text NOT NULL CHECK (length(description) <= 200),
  row_count integer NOT NULL CHECK (row_count >= 1),
  total numeric(21, 2) NOT NULL,
  content_hash text NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  submitted_at timestamptz,
  approved_at timestamptz,
  -- What the preparer's desk showed with this version (decision 44): shown to approvers, outside
  -- the content hash, written with the version and never afterwards.
  review jsonb CHECK (review IS NULL OR (jsonb_typeof(review) = 'object' AND octet_length(review::text) <= 65536)),
  PRIMARY KEY (run_id, version)
);

CREATE TABLE payout_desk.run_rows (
  run_id text NOT NULL,
  version integer NOT NULL,
  position integer NOT NULL CHECK (position >= 1),
  reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 100),
  amount numeric(17, 2) NOT NULL CHECK (amount > 0),
  bank_code text NOT NULL CHECK (length(bank_code) BETWEEN 1 AND 20),
  account_number text NOT NULL CHECK (length(account_number) BETWEEN 1 AND 40),
  customer_name text NOT NULL CHECK (length(customer_name) <= 200),
  customer_email text NOT NULL CHECK (length(customer_email) <= 200),
  narration text NOT NULL CHECK (length(narration) <= 200),
  PRIMARY KEY (run_id, version, position),
  UNIQUE (run_id, version, reference),
  FOREIGN KEY (run_id, version) REFERENCES payout_desk.run_versions (run_id, version)
);

-- Everyone who prepared or edited a run: none of them may approve or reject it.
CREATE TABLE payout_desk.run_contributors (
  run_id text NOT NULL REFERENCES payout_desk.runs (run_id),
  member text NOT NULL,
  PRIMARY KEY (run_id, member)
);

-- Approvals and rejections, each bound to a version and its content hash.
CREATE TABLE payout_desk.run_decisions (
  run_id text NOT NULL,
  version integer NOT NULL,
  decided_by text NOT NULL,
  decision text NOT NULL CHECK (decision IN ('approved', 'rejected')),
  content_hash text NOT NULL,
  reason text,
  decided_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, version, decided_by),
  FOREIGN KEY (run_id, version) REFERENCES payout_desk.run_versions (run_id, version),
  CHECK ((decision = 'approved' AND reason IS NULL)
      OR (decision = 'rejected' AND length(btrim(reason)) BETWEEN 1 AND 500))
);

-- The last version each member looked at (the Approvals screen shows the changes since).
CREATE TABLE payout_desk.run_seen (
  run_id text NOT NULL REFERENCES payout_desk.runs (run_id),
  member text NOT NULL,
  version integer NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, member)
);

-- ---- Release: claims on batch (or single payout) references, their payouts and holders.

-- A claim on a batch (or a single payout) reference: the desk that holds it, until when.
CREATE TABLE payout_desk.claims (
  reference text PRIMARY KEY CHECK (length(reference) BETWEEN 1 AND 100),
  kind text NOT NULL CHECK (kind IN ('batch', 'payout')),
  run_id text NOT NULL,
  version integer NOT NULL,
  state text NOT NULL CHECK (state IN ('held', 'done', 'released')),
  holder text NOT NULL,
  holder_desk text NOT NULL REFERENCES payout_desk.desks (desk_id),
  claimed_at timestamptz NOT NULL,
  lease_until timestamptz NOT NULL,
  takeovers integer NOT NULL DEFAULT 0,
  FOREIGN KEY (run_id, version) REFERENCES payout_desk.run_versions (run_id, version)
);
CREATE INDEX claims_run ON payout_desk.claims (run_id);

-- Each payout reference is claimed once, team-wide: two claims can never cover the same row.
CREATE TABLE payout_desk.claim_items (
  item_reference text PRIMARY KEY,
  claim_reference text NOT NULL REFERENCES payout_desk.claims (reference),
  run_id text NOT NULL,
  version integer NOT NULL,
  position integer NOT NULL,
  outcome text CHECK (outcome IN ('sent', 'accepted', 'refused', 'unknown', 'paid', 'failed')),
  outcome_at timestamptz,
  first_sent_at timestamptz,
  message text,
  FOREIGN KEY (run_id, version, position) REFERENCES payout_desk.run_rows (run_id, version, position)
);
CREATE INDEX claim_items_claim ON payout_desk.claim_items (claim_reference);

-- Every desk that has held a claim: a past holder may still record what it verified.
CREATE TABLE payout_desk.claim_holders (
  claim_reference text NOT NULL REFERENCES payout_desk.claims (reference),
  holder text NOT NULL,
  holder_desk text NOT NULL,
  held_from timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (claim_reference, holder_desk)
);
