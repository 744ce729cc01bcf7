-- A confirmation is by a member who neither prepared nor edited its run, and never changes
-- (check_payee_confirmation, decision 135).
CREATE OR REPLACE TRIGGER payee_confirmations_by_checker BEFORE INSERT OR UPDATE OR DELETE
  ON payout_desk.payee_confirmations
  FOR EACH ROW EXECUTE FUNCTION payout_desk.check_payee_confirmation();
