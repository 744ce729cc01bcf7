-- Claims several batch references of ONE run in one transaction, under the same rule as claim:
-- each claim is committed in the transaction that checks nobody else holds it, before its batch
-- leaves (decision 43). One commit for the group instead of one per batch: every commit appends to
-- the team's single audit chain, whose head row is locked until commit.
-- * ALL: what concerns the run (the caller's role and desk, the lease, the run approved at this
--   version with this content hash) is checked once, first; any failure refuses the whole call
--   and nothing is claimed.
-- * EACH: every claim is then made by payout_desk.claim itself (the same checks, the same audit
--   entry), in its own subtransaction. A claim refused (held by another desk, a payout claimed
--   elsewhere, nothing left to send, not a payout of the run) is answered as refused with its
--   SQLSTATE, reason and text; the others are still made.
-- The answer lists every reference in the order asked: {reference, claim} or {reference, refused}.
CREATE OR REPLACE FUNCTION payout_desk.claim_batches(p_run_id text, p_version integer, p_hash text, p_claims jsonb,
    p_desk text, p_lease_seconds integer)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('approver', p_desk);
  run payout_desk.runs;
  entry jsonb;
  reference text;
  items text[];
  answers jsonb := '[]'::jsonb;
  refused_code text;
  refused_text text;
  refused_reason text;
BEGIN
  PERFORM payout_desk.lease_of(p_lease_seconds);
  IF jsonb_typeof(p_claims) IS DISTINCT FROM 'array' OR jsonb_array_length(p_claims) NOT BETWEEN 1 AND 32 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'Claims are a list of 1 to 32 {reference, payouts}.');
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_claims) e
             WHERE jsonb_typeof(e.value) IS DISTINCT FROM 'object'
                OR jsonb_typeof(e.value -> 'reference') IS DISTINCT FROM 'string'
                OR jsonb_typeof(e.value -> 'payouts') IS DISTINCT FROM 'array') THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'Each claim is {reference: text, payouts: [text]}.');
  END IF;
  IF (SELECT count(DISTINCT e.value ->> 'reference') FROM jsonb_array_elements(p_claims) e)
     <> jsonb_array_length(p_claims) THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A batch reference is named twice in one list of claims.');
  END IF;

  -- ALL: the run, once (its lock is held to commit, so each claim below finds it as checked here).
  run := payout_desk.releasable_run(p_run_id, p_version, p_hash);

  -- EACH: every claim as payout_desk.claim makes it, refused on its own.
  FOR entry IN SELECT e.value FROM jsonb_array_elements(p_claims) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord LOOP
    reference := entry ->> 'reference';
    items := ARRAY(SELECT jsonb_array_elements_text(entry -> 'payouts'));
    BEGIN
      answers := answers || jsonb_build_array(jsonb_build_object('reference', reference,
        'claim', payout_desk.claim(p_run_id, p_version, p_hash, reference, 'batch', items, p_desk, p_lease_seconds)));
    EXCEPTION WHEN SQLSTATE 'PT400' OR SQLSTATE 'PT409' OR SQLSTATE 'PT423' THEN
      GET STACKED DIAGNOSTICS refused_code = RETURNED_SQLSTATE, refused_text = MESSAGE_TEXT,
        refused_reason = PG_EXCEPTION_DETAIL;
      answers := answers || jsonb_build_array(jsonb_build_object('reference', reference,
        'refused', jsonb_build_object('sqlstate', refused_code, 'reason', refused_reason, 'message', refused_text)));
    END;
  END LOOP;
  RETURN answers;
END
$$;
