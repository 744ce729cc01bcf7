-- The rules of the team's reconciliation records (decision 149), held by triggers whoever writes:
-- each record is written as the member making it (session_user) and never changed or removed; a
-- confirmation is never by the explanation's author; a close is refused while the period is closed
-- or while a payout made by nobody in the team lacks an explanation a second member confirmed.
CREATE OR REPLACE FUNCTION payout_desk.check_recon_record() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_author text;
  v_waiting text[];
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM payout_desk.fail('PT403', 'recon_append_only',
      'A reconciliation record is evidence: it is never changed or removed.');
  END IF;
  CASE TG_TABLE_NAME
    WHEN 'recon_explanations' THEN
      NEW.explained_by := session_user::text;
    WHEN 'recon_alerts' THEN
      NEW.recorded_by := session_user::text;
    WHEN 'recon_confirmations' THEN
      NEW.confirmed_by := session_user::text;
      SELECT x.explained_by INTO v_author FROM payout_desk.recon_explanations x WHERE x.seq = NEW.explanation_seq;
      IF v_author = NEW.confirmed_by THEN
        PERFORM payout_desk.fail('PT403', 'own_explanation', format(
          '%s explained this payout, so a second member of the team confirms the explanation, not %s.',
          v_author, v_author));
      END IF;
    WHEN 'recon_events' THEN
      NEW.by_member := session_user::text;
      IF NEW.type = 'closed' THEN
        IF payout_desk.recon_closed(NEW.mode, NEW.period_key) THEN
          PERFORM payout_desk.fail('PT409', 'period_closed', 'The period is closed already: reopen it, with a reason, before closing it again.');
        END IF;
        v_waiting := payout_desk.recon_unconfirmed(NEW.mode, NEW.period_key);
        IF cardinality(v_waiting) > 0 THEN
          PERFORM payout_desk.fail('PT409', 'service_only_unconfirmed', format(
            '%s %s made with the key by nobody in the team %s no explanation confirmed by a second member (%s): one member explains each, a different member confirms it, before the period closes.',
            cardinality(v_waiting), CASE WHEN cardinality(v_waiting) = 1 THEN 'payout' ELSE 'payouts' END,
            CASE WHEN cardinality(v_waiting) = 1 THEN 'has' ELSE 'have' END,
            array_to_string(v_waiting[1:10], ', ') || CASE WHEN cardinality(v_waiting) > 10 THEN ', …' ELSE '' END));
        END IF;
      END IF;
  END CASE;
  RETURN NEW;
END
$$;
