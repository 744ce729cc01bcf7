-- A claim is made or taken over only by a desk in the run's mode (claim_in_run_mode, decision 61).
CREATE OR REPLACE TRIGGER claims_in_run_mode BEFORE INSERT OR UPDATE OF holder_desk ON payout_desk.claims
  FOR EACH ROW EXECUTE FUNCTION payout_desk.claim_in_run_mode();
