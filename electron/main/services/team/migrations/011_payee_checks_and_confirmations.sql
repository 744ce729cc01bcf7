-- 011: what the preparing desk's payee checks found on a version's rows travels with the version,
-- and a changed or shared account is confirmed in the team database, by a member who neither
-- prepared nor edited the run; a run is not approved while such a row waits (decision 135, after
-- decision 124). Additive: existing versions keep what they had and are marked as shared without
-- payee checks.

-- Whether the version was shared with the desk's payee checks (a content's "payees" list, empty
-- when nothing was found): false for a version shared without them (before 011, or from psql),
-- which the approver is told.
ALTER TABLE payout_desk.run_versions ADD COLUMN payee_checks_reported boolean NOT NULL DEFAULT false;

-- A version's rows the checks flagged, or that carry the sheet's payee id: the payee as the payee
-- book keys it, the account's key, the payee id, and the flags (kind and the desk's words).
-- held_for is worked out here from the kinds: the flags that hold the row until a confirmation.
-- Written with the version (payout_desk.store_version), never afterwards.
CREATE TABLE payout_desk.run_row_payees (
  run_id text NOT NULL,
  version integer NOT NULL,
  position integer NOT NULL,
  payee_id text CHECK (payee_id IS NULL OR length(payee_id) BETWEEN 1 AND 100),
  payee_key text NOT NULL CHECK (length(payee_key) BETWEEN 1 AND 300),
  account_key text NOT NULL CHECK (length(account_key) BETWEEN 1 AND 120),
  tripwires jsonb NOT NULL CHECK (jsonb_typeof(tripwires) = 'array' AND octet_length(tripwires::text) <= 8192),
  held_for text[] NOT NULL CHECK (held_for <@ ARRAY['account_changed', 'shared_account']),
  PRIMARY KEY (run_id, version, position),
  FOREIGN KEY (run_id, version, position) REFERENCES payout_desk.run_rows (run_id, version, position)
);

-- Who confirmed that a payee is paid to an account, how and when, from which run's row. It answers
-- that payee's rows to that account in this run and in every later run of the team. Written only
-- by payout_desk.confirm_payee; a trigger refuses a confirmer who prepared or edited the run, and
-- any change or removal (definitions/triggers/payee_confirmations_by_checker.sql).
CREATE TABLE payout_desk.payee_confirmations (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payee_key text NOT NULL,
  account_key text NOT NULL,
  method text NOT NULL CHECK (method IN ('called_number_on_file', 'in_person', 'signed_letter', 'other')),
  note text CHECK (note IS NULL OR length(btrim(note)) BETWEEN 1 AND 500),
  confirmed_by text NOT NULL,
  confirmed_at timestamptz NOT NULL DEFAULT now(),
  desk_id text NOT NULL,
  run_id text NOT NULL,
  version integer NOT NULL,
  position integer NOT NULL,
  kinds text[] NOT NULL CHECK (cardinality(kinds) >= 1 AND kinds <@ ARRAY['account_changed', 'shared_account']),
  CHECK (method <> 'other' OR note IS NOT NULL),
  FOREIGN KEY (run_id, version, position) REFERENCES payout_desk.run_row_payees (run_id, version, position)
);
CREATE INDEX payee_confirmations_pair ON payout_desk.payee_confirmations (payee_key, account_key);
CREATE INDEX payee_confirmations_run ON payout_desk.payee_confirmations (run_id);
