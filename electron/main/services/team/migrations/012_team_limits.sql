-- 012: limits that cap what each member of the team can release in a day (decision 138, the team's
-- half of decision 127), kept and enforced here so every desk is bound by the same ones.
--
-- limit_rules: one limit in one currency: the maximum per payout, or a member's daily total or
-- daily count. A breach is refused, or released only with one more approver (on_breach). A rule
-- exists only as a second admin approved it (approved_by, never the one who proposed it).
CREATE TABLE payout_desk.limit_rules (
  kind text NOT NULL CHECK (kind IN ('per_payout', 'daily_total', 'daily_count')),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  value numeric(19, 2) NOT NULL CHECK (value > 0 AND (kind <> 'daily_count' OR value = trunc(value))),
  on_breach text NOT NULL CHECK (on_breach IN ('refuse', 'approver')),
  proposed_by text NOT NULL,
  approved_by text NOT NULL CHECK (approved_by <> proposed_by),
  set_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT limit_rules_pkey PRIMARY KEY (kind, currency)
);

-- limit_settings: the zone "today" and the sending hours are read in, and the optional hours
-- (from inclusive, to exclusive; `to` before `from` runs past midnight).
CREATE TABLE payout_desk.limit_settings (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  time_zone text NOT NULL DEFAULT 'UTC' CHECK (length(time_zone) BETWEEN 1 AND 64),
  hours_from text CHECK (hours_from ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  hours_to text CHECK (hours_to ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  hours_on_breach text CHECK (hours_on_breach IN ('refuse', 'approver')),
  CHECK ((hours_from IS NULL) = (hours_to IS NULL) AND (hours_from IS NULL) = (hours_on_breach IS NULL)),
  CHECK (hours_from IS DISTINCT FROM hours_to OR hours_from IS NULL)
);
INSERT INTO payout_desk.limit_settings DEFAULT VALUES;

-- limit_changes: what one admin proposed and a second admin must approve before it takes effect:
-- a rule ('daily_total:NGN'), the hours or the time zone, as its new value (NULL: removed).
CREATE TABLE payout_desk.limit_changes (
  subject text PRIMARY KEY CHECK (subject ~ '^((per_payout|daily_total|daily_count):[A-Z]{3}|hours|time_zone)$'),
  proposed jsonb CHECK (proposed IS NULL OR jsonb_typeof(proposed) = 'object'),
  proposed_by text NOT NULL,
  proposed_at timestamptz NOT NULL DEFAULT now()
);

-- Who released each payout, and when: what a member sent today is counted from these.
ALTER TABLE payout_desk.claim_items ADD COLUMN claimed_by text, ADD COLUMN claimed_at timestamptz;
UPDATE payout_desk.claim_items i
  SET claimed_by = h.holder, claimed_at = h.held_from
  FROM (SELECT DISTINCT ON (claim_reference) claim_reference, holder, held_from
        FROM payout_desk.claim_holders ORDER BY claim_reference, held_from) h
  WHERE h.claim_reference = i.claim_reference;
CREATE INDEX claim_items_claimed_by ON payout_desk.claim_items (claimed_by, claimed_at);
