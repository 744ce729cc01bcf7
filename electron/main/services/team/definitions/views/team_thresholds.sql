-- The currencies' thresholds, to members only.
CREATE OR REPLACE VIEW payout_desk.team_thresholds WITH (security_barrier) AS
  SELECT t.currency, t.amount::text AS amount, t.set_by, payout_desk.iso(t.set_at) AS set_at
  FROM payout_desk.thresholds t
  WHERE payout_desk.is_member();
