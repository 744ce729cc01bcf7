-- Nobody empties the audit trail (refuse_audit_change).
CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON payout_desk.audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION payout_desk.refuse_audit_change();
