-- Every approval and rejection, bound to its version's hash, to members only.
CREATE OR REPLACE VIEW payout_desk.team_run_decisions WITH (security_barrier) AS
  SELECT d.run_id, d.version, d.decided_by, d.decision, d.content_hash, d.reason, payout_desk.iso(d.decided_at) AS decided_at
  FROM payout_desk.run_decisions d
  WHERE payout_desk.is_member();
