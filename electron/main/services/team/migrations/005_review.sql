-- 005: the review travels with each version. An approver on another desk sees the review the
-- preparer saw (issue 16 §6, issue 17 §5): the sheet's control total, the rows left out by reason,
-- the name checks (match, close match, no match) and who acknowledged the no-match names, and the
-- fee estimate with who pays. It is written by the preparer's desk in the same call that stores
-- the version (create_run and revise_run with a review), checked here for shape and size, and
-- never changed afterwards: a different review is a new version, which voids earlier approvals.
--
-- The review is NOT part of the content hash: the hash binds what is paid (rows, currency, who
-- bears the fees), and a releasing desk recomputes it from what it sends. The review is what the
-- preparer's desk saw, derived from that content and the sheet; it is shown, not enforced.
--
-- Also: the team's recent payouts name the desk that released them by its label.

ALTER TABLE payout_desk.run_versions
  ADD COLUMN review jsonb CHECK (review IS NULL OR (jsonb_typeof(review) = 'object' AND octet_length(review::text) <= 65536));

-- What is wrong with a review, or NULL when nothing is (the app checks the same shape,
-- shared/bulk/review-figures.ts). p_rows is the version's number of payouts.
CREATE FUNCTION payout_desk.review_problem(p_review jsonb, p_rows integer, p_merchant_bears_cost boolean) RETURNS text
  LANGUAGE plpgsql IMMUTABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  tally_re constant text := '^(0|[1-9][0-9]{0,6})$';
  amount_re constant text := '^-?(0|[1-9][0-9]{0,18})\.[0-9]{2}$';
  key text;
  item jsonb;
  named integer;
BEGIN
  IF jsonb_typeof(p_review) IS DISTINCT FROM 'object' THEN
    RETURN 'must be an object';
  END IF;
  IF octet_length(p_review::text) > 65536 THEN
    RETURN 'are larger than 64 KiB';
  END IF;
  FOR key IN SELECT jsonb_object_keys(p_review) LOOP
    IF key NOT IN ('mode', 'controlTotal', 'skipped', 'excluded', 'errors', 'names', 'acknowledgements', 'noMatch', 'fees') THEN
      RETURN format('have an unknown field %s', key);
    END IF;
  END LOOP;
  IF coalesce(p_review ->> 'mode', '') NOT IN ('sandbox', 'test', 'live') THEN
    RETURN 'mode must be sandbox, test or live';
  END IF;
  IF jsonb_typeof(p_review -> 'controlTotal') IS DISTINCT FROM 'null' AND NOT (
       jsonb_typeof(p_review -> 'controlTotal') = 'object'
       AND coalesce(p_review #>> '{controlTotal,sheet}', '') ~ amount_re
       AND coalesce(p_review #>> '{controlTotal,computed}', '') ~ amount_re
       AND jsonb_typeof(p_review #> '{controlTotal,match}') = 'boolean') THEN
    RETURN 'controlTotal must be null or {sheet, computed, match} with exact amounts';
  END IF;
  IF jsonb_typeof(p_review -> 'errors') IS DISTINCT FROM 'number' OR (p_review ->> 'errors') !~ tally_re THEN
    RETURN 'errors must be a count';
  END IF;
  FOR key IN SELECT unnest(ARRAY['duplicateInSheet', 'totalsOrNotes', 'alreadyPaid', 'byHand']) LOOP
    IF jsonb_typeof(p_review #> ARRAY['excluded', key]) IS DISTINCT FROM 'number'
       OR (p_review #>> ARRAY['excluded', key]) !~ tally_re THEN
      RETURN format('excluded.%s must be a count', key);
    END IF;
  END LOOP;
  FOR key IN SELECT unnest(ARRAY['match', 'closeMatch', 'noMatch', 'unchecked', 'acknowledged']) LOOP
    IF jsonb_typeof(p_review #> ARRAY['names', key]) IS DISTINCT FROM 'number'
       OR (p_review #>> ARRAY['names', key]) !~ tally_re THEN
      RETURN format('names.%s must be a count', key);
    END IF;
  END LOOP;
  named := (p_review #>> '{names,match}')::integer + (p_review #>> '{names,closeMatch}')::integer
         + (p_review #>> '{names,noMatch}')::integer + (p_review #>> '{names,unchecked}')::integer;
  IF named > p_rows THEN
    RETURN format('count %s name checks for a version of %s payouts', named, p_rows);
  END IF;
  IF (p_review #>> '{names,acknowledged}')::integer > (p_review #>> '{names,noMatch}')::integer THEN
    RETURN 'acknowledge more names than do not match';
  END IF;
  IF jsonb_typeof(p_review -> 'skipped') IS DISTINCT FROM 'array' OR jsonb_array_length(p_review -> 'skipped') > 50 THEN
    RETURN 'skipped must be a list of at most 50 rows';
  END IF;
  FOR item IN SELECT jsonb_array_elements(p_review -> 'skipped') LOOP
    IF jsonb_typeof(item -> 'row') IS DISTINCT FROM 'number' OR (item ->> 'row') !~ tally_re
       OR coalesce(item ->> 'why', '') NOT IN ('totals', 'notes') THEN
      RETURN 'each skipped row must be {row, why: totals or notes}';
    END IF;
  END LOOP;
  IF jsonb_typeof(p_review -> 'acknowledgements') IS DISTINCT FROM 'array'
     OR jsonb_array_length(p_review -> 'acknowledgements') > 50 THEN
    RETURN 'acknowledgements must be a list of at most 50';
  END IF;
  FOR item IN SELECT jsonb_array_elements(p_review -> 'acknowledgements') LOOP
    IF jsonb_typeof(item -> 'by') IS DISTINCT FROM 'string' OR length(item ->> 'by') NOT BETWEEN 1 AND 200
       OR jsonb_typeof(item -> 'at') IS DISTINCT FROM 'string' OR length(item ->> 'at') NOT BETWEEN 1 AND 40
       OR jsonb_typeof(item -> 'rows') IS DISTINCT FROM 'number' OR (item ->> 'rows') !~ tally_re THEN
      RETURN 'each acknowledgement must be {by, at, rows}';
    END IF;
  END LOOP;
  IF jsonb_typeof(p_review -> 'noMatch') IS DISTINCT FROM 'array' OR jsonb_array_length(p_review -> 'noMatch') > 50 THEN
    RETURN 'noMatch must be a list of at most 50 names';
  END IF;
  FOR item IN SELECT jsonb_array_elements(p_review -> 'noMatch') LOOP
    IF jsonb_typeof(item -> 'reference') IS DISTINCT FROM 'string' OR length(item ->> 'reference') NOT BETWEEN 1 AND 100
       OR jsonb_typeof(item -> 'row') IS DISTINCT FROM 'number' OR (item ->> 'row') !~ tally_re
       OR jsonb_typeof(item -> 'sheetName') IS DISTINCT FROM 'string' OR length(item ->> 'sheetName') > 200
       OR jsonb_typeof(item -> 'bankName') IS DISTINCT FROM 'string' OR length(item ->> 'bankName') > 200
       OR NOT (jsonb_typeof(item -> 'acknowledged') = 'null' OR (
         jsonb_typeof(item #> '{acknowledged,by}') = 'string' AND length(item #>> '{acknowledged,by}') BETWEEN 1 AND 200
         AND jsonb_typeof(item #> '{acknowledged,at}') = 'string' AND length(item #>> '{acknowledged,at}') BETWEEN 1 AND 40))
    THEN
      RETURN 'each noMatch name must be {reference, row, sheetName, bankName, acknowledged}';
    END IF;
  END LOOP;
  IF jsonb_typeof(p_review -> 'fees') IS DISTINCT FROM 'object'
     OR jsonb_typeof(p_review #> '{fees,merchantBearsCost}') IS DISTINCT FROM 'boolean'
     OR jsonb_typeof(p_review #> '{fees,basis}') IS DISTINCT FROM 'number' OR (p_review #>> '{fees,basis}') !~ tally_re THEN
    RETURN 'fees must be {merchantBearsCost, basis, estimate, debit, chargeable}';
  END IF;
  IF (p_review #>> '{fees,merchantBearsCost}')::boolean <> p_merchant_bears_cost THEN
    RETURN 'say another payer of the fees than the version''s content';
  END IF;
  FOR key IN SELECT unnest(ARRAY['estimate', 'debit']) LOOP
    item := p_review #> ARRAY['fees', key];
    IF jsonb_typeof(item) IS DISTINCT FROM 'null' AND NOT (jsonb_typeof(item) = 'object'
         AND coalesce(item ->> 'estimate', '') ~ amount_re AND coalesce(item ->> 'low', '') ~ amount_re
         AND coalesce(item ->> 'high', '') ~ amount_re) THEN
      RETURN format('fees.%s must be null or {estimate, low, high} with exact amounts', key);
    END IF;
  END LOOP;
  IF jsonb_typeof(p_review #> '{fees,chargeable}') IS DISTINCT FROM 'null'
     AND coalesce(p_review #>> '{fees,chargeable}', '') !~ amount_re THEN
    RETURN 'fees.chargeable must be null or an exact amount';
  END IF;
  RETURN NULL;
END
$$;

-- Records the review of a version its caller just stored (or stored before, asked again): once,
-- by the member who made the version. A version's review never changes afterwards.
CREATE FUNCTION payout_desk.store_review(p_run_id text, p_version integer, p_review jsonb, p_me text) RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  version_row payout_desk.run_versions;
  problem text;
BEGIN
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version FOR UPDATE;
  IF version_row.created_by IS DISTINCT FROM p_me THEN
    PERFORM payout_desk.fail('PT403', format('%s did not make version %s of run %s, so cannot record its review.',
      p_me, p_version, p_run_id));
  END IF;
  problem := payout_desk.review_problem(p_review, version_row.row_count, version_row.merchant_bears_cost);
  IF problem IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', format('The review figures of run %s %s.', p_run_id, problem));
  END IF;
  IF version_row.review IS NULL THEN
    UPDATE payout_desk.run_versions SET review = p_review WHERE run_id = p_run_id AND version = p_version;
  END IF;
END
$$;

-- create_run with the review the preparer's desk saw: the version and its review in one transaction.
CREATE FUNCTION payout_desk.create_run(p_run_id text, p_label text, p_desk text, p_content jsonb, p_hash text,
    p_review jsonb)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('preparer');
  created jsonb;
BEGIN
  created := payout_desk.create_run(p_run_id, p_label, p_desk, p_content, p_hash);
  PERFORM payout_desk.store_review(p_run_id, (created ->> 'version')::integer, p_review, me);
  RETURN payout_desk.run_view(p_run_id);
END
$$;

-- revise_run with the review of the new version (a new review with the same content is a new
-- version too: what approvers saw changed, so their approvals are void).
CREATE FUNCTION payout_desk.revise_run(p_run_id text, p_base_version integer, p_desk text, p_content jsonb,
    p_hash text, p_review jsonb)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('preparer');
  revised jsonb;
BEGIN
  revised := payout_desk.revise_run(p_run_id, p_base_version, p_desk, p_content, p_hash);
  PERFORM payout_desk.store_review(p_run_id, (revised ->> 'version')::integer, p_review, me);
  RETURN payout_desk.run_view(p_run_id);
END
$$;

-- run_view as in 002, with the current version's review.
CREATE OR REPLACE FUNCTION payout_desk.run_view(p_run_id text) RETURNS jsonb
  LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT jsonb_build_object(
    'runId', r.run_id, 'label', r.label, 'state', r.state, 'version', r.current_version,
    'preparedBy', r.prepared_by, 'createdAt', payout_desk.iso(r.created_at), 'updatedAt', payout_desk.iso(r.updated_at),
    'currency', v.currency, 'merchantBearsCost', v.merchant_bears_cost, 'description', v.description,
    'rows', v.row_count, 'total', v.total::text, 'contentHash', v.content_hash,
    'versionBy', v.created_by, 'versionAt', payout_desk.iso(v.created_at),
    'submittedAt', payout_desk.iso(v.submitted_at), 'approvedAt', payout_desk.iso(v.approved_at),
    'approvalsRequired', payout_desk.approvals_required(v.currency, v.total),
    'approvals', coalesce((
      SELECT jsonb_agg(jsonb_build_object('by', d.decided_by, 'at', payout_desk.iso(d.decided_at)) ORDER BY d.decided_at)
      FROM payout_desk.run_decisions d
      WHERE d.run_id = r.run_id AND d.version = r.current_version AND d.decision = 'approved'), '[]'::jsonb),
    'rejection', (
      SELECT jsonb_build_object('by', d.decided_by, 'at', payout_desk.iso(d.decided_at), 'reason', d.reason,
        'version', d.version)
      FROM payout_desk.run_decisions d
      WHERE d.run_id = r.run_id AND d.decision = 'rejected'
      ORDER BY d.decided_at DESC LIMIT 1),
    'contributors', (SELECT jsonb_agg(c.member ORDER BY c.member) FROM payout_desk.run_contributors c
      WHERE c.run_id = r.run_id),
    'releasedBy', coalesce((SELECT jsonb_agg(DISTINCT h.holder) FROM payout_desk.claim_holders h
      JOIN payout_desk.claims c ON c.reference = h.claim_reference WHERE c.run_id = r.run_id), '[]'::jsonb),
    'lastSeenVersion', (SELECT s.version FROM payout_desk.run_seen s
      WHERE s.run_id = r.run_id AND s.member = session_user::text),
    'review', v.review)
  FROM payout_desk.runs r
  JOIN payout_desk.run_versions v ON v.run_id = r.run_id AND v.version = r.current_version
  WHERE r.run_id = p_run_id AND payout_desk.is_member()
$$;

-- The team's recent payouts, with the releasing desk's label (columns added at the end).
CREATE OR REPLACE VIEW payout_desk.team_recent_payouts WITH (security_barrier) AS
  SELECT i.item_reference AS reference, i.run_id, run.label AS run_label, r.amount::text AS amount, v.currency,
         r.bank_code, r.account_number, r.customer_name, i.outcome, payout_desk.iso(i.outcome_at) AS outcome_at,
         i.outcome_at AS outcome_time, i.message, c.holder AS released_by, c.holder_desk AS desk_id,
         d.label AS desk_label
  FROM payout_desk.claim_items i
  JOIN payout_desk.run_rows r ON r.run_id = i.run_id AND r.version = i.version AND r.position = i.position
  JOIN payout_desk.run_versions v ON v.run_id = i.run_id AND v.version = i.version
  JOIN payout_desk.runs run ON run.run_id = i.run_id
  JOIN payout_desk.claims c ON c.reference = i.claim_reference
  LEFT JOIN payout_desk.desks d ON d.desk_id = c.holder_desk
  WHERE i.outcome IS NOT NULL AND payout_desk.is_member();

GRANT EXECUTE ON FUNCTION payout_desk.create_run(text, text, text, jsonb, text, jsonb),
  payout_desk.revise_run(text, integer, text, jsonb, text, jsonb)
  TO payout_desk_preparer;
