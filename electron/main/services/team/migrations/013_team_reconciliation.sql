-- 013: closing a reconciled period in team mode (decision 149): the team's record of each period's
-- payouts made with the key by nobody in the team (alerts), the explanations of its exceptions,
-- the second member's confirmation of an explanation of such a payout, and each close and
-- reopening; per mode (the desk's registered mode), so a rehearsal never closes a Live period.
-- A period's key is its currency and both ends (shared/reconciliation/period-close.ts, periodKey).
-- Written only by the recon_* functions; triggers hold the rules whoever writes
-- (definitions/triggers/recon_*.sql). Desks have no privilege on these tables (grants.sql).

-- A payout the service showed for the period that no desk of the team recorded: once recorded it
-- stays, so a close from psql that names none is still held to it.
CREATE TABLE payout_desk.recon_alerts (
  mode text NOT NULL CHECK (mode IN ('sandbox', 'test', 'live')),
  period_key text NOT NULL CHECK (period_key ~ '^[A-Z]{3}:[0-9]{1,16}:[0-9]{1,16}$'),
  reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 100),
  recorded_by text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  desk_id text NOT NULL,
  PRIMARY KEY (mode, period_key, reference)
);

-- Each explanation of an exception, as recorded (a later one of the same payout replaces it in
-- force; the earlier stays).
CREATE TABLE payout_desk.recon_explanations (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  mode text NOT NULL CHECK (mode IN ('sandbox', 'test', 'live')),
  period_key text NOT NULL CHECK (period_key ~ '^[A-Z]{3}:[0-9]{1,16}:[0-9]{1,16}$'),
  reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 100),
  class text NOT NULL CHECK (class IN ('differs', 'service_only', 'ours_only')),
  reason text NOT NULL CHECK (reason IN ('authorised_elsewhere', 'fee_agreed', 'reversal_booked', 'sent_again',
    'other_period', 'other')),
  note text NOT NULL CHECK (length(note) <= 500),
  explained_by text NOT NULL,
  explained_at timestamptz NOT NULL DEFAULT now(),
  desk_id text NOT NULL
);
CREATE INDEX recon_explanations_period ON payout_desk.recon_explanations (mode, period_key, reference, seq);

-- A second member's confirmation of one explanation (never its author's).
CREATE TABLE payout_desk.recon_confirmations (
  explanation_seq bigint PRIMARY KEY REFERENCES payout_desk.recon_explanations (seq),
  confirmed_by text NOT NULL,
  confirmed_at timestamptz NOT NULL DEFAULT now(),
  desk_id text NOT NULL
);

-- Each close and reopening of a period, in order.
CREATE TABLE payout_desk.recon_events (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  mode text NOT NULL CHECK (mode IN ('sandbox', 'test', 'live')),
  period_key text NOT NULL CHECK (period_key ~ '^[A-Z]{3}:[0-9]{1,16}:[0-9]{1,16}$'),
  type text NOT NULL CHECK (type IN ('closed', 'reopened')),
  by_member text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  desk_id text NOT NULL,
  exceptions integer CHECK (exceptions >= 0),
  reason text CHECK (reason IS NULL OR length(btrim(reason)) BETWEEN 1 AND 500),
  report jsonb CHECK (report IS NULL OR (jsonb_typeof(report) = 'object' AND octet_length(report::text) <= 2048)),
  CHECK ((type = 'closed' AND exceptions IS NOT NULL AND reason IS NULL) OR (type = 'reopened' AND reason IS NOT NULL))
);
CREATE INDEX recon_events_period ON payout_desk.recon_events (mode, period_key, seq);

-- The fee the service reported for each payout a desk released, as that desk recorded it with the
-- payout's result (decision 150): reconciliation on every other desk compares the service's fee with
-- it, as with a desk's own records. Null when the service named none (or the result was recorded
-- before this); the first fee recorded stays, so a fee changed at the service later differs.
ALTER TABLE payout_desk.claim_items ADD COLUMN fee numeric(17, 2) CHECK (fee >= 0);
-- A desk's list of results now carries each payout's fee: results_of returns it, a change of its
-- result type, so the old one goes (definitions/functions/results_of.sql makes the new one).
DROP FUNCTION IF EXISTS payout_desk.results_of(jsonb);
