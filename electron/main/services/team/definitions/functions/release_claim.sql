-- Gives a claim back when nothing of it was sent (its payouts may then be claimed again).
CREATE OR REPLACE FUNCTION payout_desk.release_claim(p_reference text, p_desk text, p_reason text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('approver', p_desk);
  existing payout_desk.claims;
BEGIN
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference;
  IF existing.reference IS NULL THEN
    PERFORM payout_desk.fail('PT404', 'claim_not_found', format('There is no claim on %s.', coalesce(p_reference, '(none)')));
  END IF;
  PERFORM payout_desk.lock_run(existing.run_id);
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference FOR UPDATE;
  IF existing.state = 'released' THEN
    RETURN jsonb_build_object('reference', p_reference, 'state', 'released');
  END IF;
  IF existing.holder_desk <> p_desk OR existing.state <> 'held' THEN
    PERFORM payout_desk.fail('PT423', 'claim_not_held', format('%s is not held by this desk.', p_reference));
  END IF;
  IF EXISTS (SELECT 1 FROM payout_desk.claim_items WHERE claim_reference = p_reference AND outcome IS NOT NULL) THEN
    PERFORM payout_desk.fail('PT409', 'claim_has_results', format('Something of %s was sent: record its results; it cannot be given back.',
      p_reference));
  END IF;
  DELETE FROM payout_desk.claim_items WHERE claim_reference = p_reference;
  UPDATE payout_desk.claims SET state = 'released' WHERE reference = p_reference;
  IF NOT EXISTS (SELECT 1 FROM payout_desk.claims WHERE run_id = existing.run_id AND state <> 'released') THEN
    UPDATE payout_desk.runs SET state = 'approved', updated_at = now() WHERE run_id = existing.run_id AND state = 'releasing';
  END IF;
  PERFORM payout_desk.append_audit('claim_released', existing.run_id, p_reference, jsonb_build_object(
    'reason', left(coalesce(p_reason, ''), 300)), p_desk);
  RETURN jsonb_build_object('reference', p_reference, 'state', 'released');
END
$$;
