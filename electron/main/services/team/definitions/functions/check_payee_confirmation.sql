-- The payee_confirmations trigger's body (decision 135): a confirmation is written as the member
-- who makes it (session_user, whatever the row said), never by one who prepared or edited its run,
-- and never changed or removed afterwards: it is evidence. Desks have no privilege on the table;
-- this holds for the owner's own functions too.
CREATE OR REPLACE FUNCTION payout_desk.check_payee_confirmation() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM payout_desk.fail('PT403', 'confirmation_append_only',
      'A payee confirmation is evidence: it is never changed or removed.');
  END IF;
  NEW.confirmed_by := session_user::text;
  PERFORM payout_desk.require_payee_confirmer(NEW.run_id, NEW.confirmed_by);
  RETURN NEW;
END
$$;
