-- A version's review says the run's mode: the first fixes it, later ones agree (review_in_run_mode).
CREATE OR REPLACE TRIGGER run_versions_review_mode BEFORE UPDATE OF review ON payout_desk.run_versions
  FOR EACH ROW WHEN (NEW.review IS NOT NULL) EXECUTE FUNCTION payout_desk.review_in_run_mode();
