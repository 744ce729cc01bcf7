-- Records how a member confirmed that a held row's payee is paid to its account (decision 135,
-- after decision 124): a row of the run's current version held for a changed or shared account,
-- the method from the list, a note ("other" needs one), by the calling member at this moment. A
-- member who prepared or edited the run is refused (the payee_confirmations trigger, whoever
-- calls). The confirmation answers the payee's rows to that account in this run and later ones;
-- asked again once answered, it answers the run as it is. Any role may confirm.
CREATE OR REPLACE FUNCTION payout_desk.confirm_payee(p_run_id text, p_version integer, p_position integer,
    p_method text, p_note text, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member(NULL, p_desk);
  run payout_desk.runs := payout_desk.lock_run(p_run_id);
  flagged payout_desk.run_row_payees;
  v_reference text;
  v_note text := nullif(btrim(coalesce(p_note, '')), '');
BEGIN
  PERFORM payout_desk.require_given(p_version,
    format('A version is required: say which version of run %s you looked at.', coalesce(p_run_id, '(none)')));
  PERFORM payout_desk.require_given(p_position,
    format('A row is required: say which row of run %s is confirmed.', coalesce(p_run_id, '(none)')));
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', 'version_stale', format('Run %s changed: version %s is current, not the version %s you looked at.',
      p_run_id, run.current_version, p_version));
  END IF;
  IF run.state IN ('releasing', 'completed') THEN
    PERFORM payout_desk.fail('PT409', 'run_closed', format('Run %s is %s: nothing in it waits for a confirmation.', p_run_id,
      CASE run.state WHEN 'releasing' THEN 'being released' ELSE 'completed' END));
  END IF;
  SELECT * INTO flagged FROM payout_desk.run_row_payees
    WHERE run_id = p_run_id AND version = p_version AND position = p_position;
  SELECT reference INTO v_reference FROM payout_desk.run_rows
    WHERE run_id = p_run_id AND version = p_version AND position = p_position;
  IF flagged.run_id IS NULL OR cardinality(flagged.held_for) = 0 THEN
    PERFORM payout_desk.fail('PT409', 'payee_not_held', format(
      'Row %s of run %s is not held for a changed or shared account: there is nothing to confirm.', p_position, p_run_id));
  END IF;
  -- Maker-checker first, so the preparer is told why whether or not someone confirmed already.
  PERFORM payout_desk.require_payee_confirmer(p_run_id, me);
  IF EXISTS (SELECT 1 FROM payout_desk.payee_confirmations c
              WHERE c.payee_key = flagged.payee_key AND c.account_key = flagged.account_key) THEN
    RETURN payout_desk.run_view(p_run_id); -- confirmed already (here or in an earlier run)
  END IF;
  IF p_method IS NULL OR p_method NOT IN ('called_number_on_file', 'in_person', 'signed_letter', 'other') THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format(
      'How the account was confirmed must be one of called_number_on_file, in_person, signed_letter or other, not %s.',
      coalesce(p_method, 'nothing')));
  END IF;
  IF p_method = 'other' AND v_note IS NULL THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'Say how the account was confirmed: a note is required when the method is "other".');
  END IF;
  IF length(v_note) > 500 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'The note is longer than 500 characters.');
  END IF;
  INSERT INTO payout_desk.payee_confirmations (payee_key, account_key, method, note, confirmed_by, desk_id, run_id,
      version, position, kinds)
    VALUES (flagged.payee_key, flagged.account_key, p_method, v_note, me, p_desk, p_run_id, p_version, p_position,
      flagged.held_for);
  UPDATE payout_desk.runs SET updated_at = now() WHERE run_id = p_run_id;
  PERFORM payout_desk.append_audit('payee_confirmed', p_run_id, v_reference, jsonb_build_object(
    'version', p_version, 'position', p_position, 'payeeKey', flagged.payee_key, 'accountKey', flagged.account_key,
    'method', p_method, 'note', v_note, 'kinds', to_jsonb(flagged.held_for)), p_desk);
  RETURN payout_desk.run_view(p_run_id);
END
$$;
