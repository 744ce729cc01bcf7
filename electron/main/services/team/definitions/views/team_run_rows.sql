-- The rows of every version of every run, to members only.
CREATE OR REPLACE VIEW payout_desk.team_run_rows WITH (security_barrier) AS
  SELECT r.run_id, r.version, r.position, r.reference, r.amount::text AS amount, r.bank_code, r.account_number,
         r.customer_name, r.customer_email, r.narration
  FROM payout_desk.run_rows r
  WHERE payout_desk.is_member();
