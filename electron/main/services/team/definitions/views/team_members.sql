-- The team's members and their roles, to members only.
CREATE OR REPLACE VIEW payout_desk.team_members WITH (security_barrier) AS
  SELECT m.login, m.display_name, m.roles, m.active, payout_desk.iso(m.added_at) AS added_at
  FROM payout_desk.members m
  WHERE payout_desk.is_member();
