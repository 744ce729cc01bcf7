-- Every version of every run, to members only.
CREATE OR REPLACE VIEW payout_desk.team_run_versions WITH (security_barrier) AS
  SELECT v.run_id, v.version, v.currency, v.merchant_bears_cost, v.description, v.row_count, v.total::text AS total,
         v.content_hash, v.created_by, payout_desk.iso(v.created_at) AS created_at
  FROM payout_desk.run_versions v
  WHERE payout_desk.is_member();
