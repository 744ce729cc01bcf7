-- The team's reconciliation records' rules, whoever writes (check_recon_record, decision 149).
CREATE OR REPLACE TRIGGER recon_explanations_checked BEFORE INSERT OR UPDATE OR DELETE ON payout_desk.recon_explanations
  FOR EACH ROW EXECUTE FUNCTION payout_desk.check_recon_record();
