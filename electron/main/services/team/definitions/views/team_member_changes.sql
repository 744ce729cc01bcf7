-- What waits for a second admin (decision 104): whose, which change, who asked and when. Never
-- the verifier of a password. To members only.
CREATE OR REPLACE VIEW payout_desk.team_member_changes WITH (security_barrier) AS
  SELECT c.login, c.display_name, c.change, c.requested_by, payout_desk.iso(c.requested_at) AS requested_at
  FROM payout_desk.member_changes c
  WHERE payout_desk.is_member();
