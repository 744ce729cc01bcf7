-- Nobody rewrites or removes an entry of the audit trail (refuse_audit_change).
CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON payout_desk.audit_log
  FOR EACH ROW EXECUTE FUNCTION payout_desk.refuse_audit_change();
