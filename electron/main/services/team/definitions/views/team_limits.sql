-- The team's limits, the changes waiting for a second admin, and what the reader released today
-- (decision 138): one row, to members only.
CREATE OR REPLACE VIEW payout_desk.team_limits WITH (security_barrier) AS
  SELECT payout_desk.limits_view() AS limits
  WHERE payout_desk.is_member();
