-- What is wrong with a review, or NULL when nothing is (the app checks the same shape,
-- shared/bulk/review-figures.ts). p_rows is the version's number of payouts.
CREATE OR REPLACE FUNCTION payout_desk.review_problem(p_review jsonb, p_rows integer, p_merchant_bears_cost boolean) RETURNS text
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
