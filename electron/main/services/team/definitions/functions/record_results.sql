-- Records what became of payouts of a claim. The desk holding it may record, and so may a desk
-- that held it before (what it sent stays its own to verify). A final result (paid, failed,
-- refused) never changes; the same result again changes nothing. Each result may carry the fee the
-- service reported for the payout (decision 150): recorded once, the first fee stays (a fee the
-- service changed later is what reconciliation must show as differing); a result recorded without
-- one gets it when the desk learns it.
CREATE OR REPLACE FUNCTION payout_desk.record_results(p_reference text, p_desk text, p_results jsonb) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member(NULL, p_desk);
  existing payout_desk.claims;
  bad record;
  changed jsonb;
  run payout_desk.runs;
BEGIN
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference;
  IF existing.reference IS NULL OR existing.state = 'released' THEN
    PERFORM payout_desk.fail('PT404', 'claim_not_found', format('There is no claim on %s.', coalesce(p_reference, '(none)')));
  END IF;
  run := payout_desk.lock_run(existing.run_id);
  IF NOT EXISTS (SELECT 1 FROM payout_desk.claim_holders WHERE claim_reference = p_reference AND holder_desk = p_desk) THEN
    PERFORM payout_desk.fail('PT403', 'never_held_claim', format('Desk %s never held %s, so it records no result of it.', p_desk, p_reference));
  END IF;
  IF jsonb_typeof(p_results) IS DISTINCT FROM 'array' OR jsonb_array_length(p_results) NOT BETWEEN 1 AND 1000 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'Results are a list of 1 to 1000 {reference, outcome, message, fee}.');
  END IF;
  SELECT g.ord, g.reference, g.outcome, g.fee INTO bad FROM payout_desk.results_of(p_results) g
    WHERE g.outcome IS NULL OR g.outcome NOT IN ('sent', 'accepted', 'refused', 'unknown', 'paid', 'failed')
       OR g.fee !~ '^[0-9]{1,15}([.][0-9]{1,2})?$'
       OR NOT EXISTS (SELECT 1 FROM payout_desk.claim_items i WHERE i.claim_reference = p_reference
                      AND i.item_reference = g.reference)
    ORDER BY g.ord LIMIT 1;
  IF bad.ord IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format('Result %s: %s.', bad.ord, CASE
      WHEN bad.outcome IS NULL OR bad.outcome NOT IN ('sent', 'accepted', 'refused', 'unknown', 'paid', 'failed')
        THEN 'the outcome is one of sent, accepted, refused, unknown, paid, failed'
      WHEN bad.fee !~ '^[0-9]{1,15}([.][0-9]{1,2})?$'
        THEN format('the fee of %s is a decimal such as 53.75, not %s', coalesce(bad.reference, '(none)'), left(bad.fee, 40))
      ELSE format('%s is not a payout of %s', coalesce(bad.reference, '(none)'), p_reference) END));
  END IF;
  IF (SELECT count(DISTINCT g.reference) FROM payout_desk.results_of(p_results) g) <> jsonb_array_length(p_results) THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A payout is named twice in one list of results.');
  END IF;
  SELECT g.reference, i.outcome AS was, g.outcome AS wanted INTO bad FROM payout_desk.results_of(p_results) g
    JOIN payout_desk.claim_items i ON i.item_reference = g.reference
    WHERE i.outcome IN ('paid', 'failed', 'refused') AND i.outcome <> g.outcome
    ORDER BY g.ord LIMIT 1;
  IF bad.reference IS NOT NULL THEN
    PERFORM payout_desk.fail('PT409', 'result_final', format('The payout %s is already %s; it cannot become %s.', bad.reference,
      bad.was, bad.wanted));
  END IF;
  WITH updated AS (
    UPDATE payout_desk.claim_items i
      SET outcome = g.outcome, message = coalesce(g.message, i.message),
          outcome_at = CASE WHEN i.outcome IS DISTINCT FROM g.outcome THEN now() ELSE i.outcome_at END,
          fee = coalesce(i.fee, g.fee::numeric),
          first_sent_at = CASE WHEN i.first_sent_at IS NULL AND g.outcome <> 'refused' THEN now() ELSE i.first_sent_at END
      FROM payout_desk.results_of(p_results) g
      WHERE i.item_reference = g.reference AND i.claim_reference = p_reference
        AND (i.outcome IS DISTINCT FROM g.outcome OR (i.fee IS NULL AND g.fee IS NOT NULL))
      RETURNING i.item_reference, i.outcome, i.position, i.fee
  )
  SELECT jsonb_agg(jsonb_build_object('reference', u.item_reference, 'outcome', u.outcome)
           || CASE WHEN u.fee IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('fee', u.fee::text) END ORDER BY u.position)
    INTO changed FROM updated u;
  IF changed IS NULL THEN
    RETURN payout_desk.claim_answer(p_reference, 'recorded', NULL);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM payout_desk.claim_items i WHERE i.claim_reference = p_reference
                 AND (i.outcome IS NULL OR i.outcome NOT IN ('paid', 'failed', 'refused'))) THEN
    UPDATE payout_desk.claims SET state = 'done' WHERE reference = p_reference;
  END IF;
  PERFORM payout_desk.append_audit('results_recorded', existing.run_id, p_reference, jsonb_build_object(
    'version', existing.version, 'results', changed), p_desk);
  IF run.state = 'releasing' AND NOT EXISTS (
       SELECT 1 FROM payout_desk.run_rows r
       LEFT JOIN payout_desk.claim_items i ON i.item_reference = r.reference AND i.run_id = r.run_id
       WHERE r.run_id = run.run_id AND r.version = run.current_version
         AND (i.outcome IS NULL OR i.outcome NOT IN ('paid', 'failed', 'refused'))) THEN
    UPDATE payout_desk.runs SET state = 'completed', updated_at = now() WHERE run_id = run.run_id;
    PERFORM payout_desk.append_audit('run_completed', run.run_id, NULL, jsonb_build_object(
      'version', run.current_version,
      'paid', (SELECT count(*) FROM payout_desk.claim_items i WHERE i.run_id = run.run_id AND i.outcome = 'paid'),
      'failed', (SELECT count(*) FROM payout_desk.claim_items i WHERE i.run_id = run.run_id AND i.outcome = 'failed'),
      'refused', (SELECT count(*) FROM payout_desk.claim_items i WHERE i.run_id = run.run_id AND i.outcome = 'refused')),
      p_desk);
  END IF;
  RETURN payout_desk.claim_answer(p_reference, 'recorded', NULL);
END
$$;
