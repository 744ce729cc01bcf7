-- The audit trail as the desk verifies it (times as hashed), to members only.
CREATE OR REPLACE VIEW payout_desk.audit_trail WITH (security_barrier) AS
  SELECT a.seq, payout_desk.iso_us(a.at) AS at, a.actor, a.desk_id, a.kind, a.run_id, a.subject, a.details,
         a.prev_hash, a.hash
  FROM payout_desk.audit_log a
  WHERE payout_desk.is_member();
