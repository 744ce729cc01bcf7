-- Every run as run_view shows it, to members only.
CREATE OR REPLACE VIEW payout_desk.team_runs WITH (security_barrier) AS
  SELECT r.run_id, payout_desk.run_view(r.run_id) AS run
  FROM payout_desk.runs r
  WHERE payout_desk.is_member();
