-- Stores one version of a run from the desk's content and returns the hash computed here. The
-- content's "payees", when there, are the desk's payee checks of its rows (store_row_payees,
-- decision 135): stored with the version, outside the hash, which covers what is sent.
CREATE OR REPLACE FUNCTION payout_desk.store_version(p_run_id text, p_version integer, p_content jsonb, p_me text)
  RETURNS text
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_currency text := p_content ->> 'currency';
  v_bears jsonb := p_content -> 'merchantBearsCost';
  v_description text := coalesce(p_content ->> 'description', '');
  v_rows jsonb := p_content -> 'rows';
  v_bad record;
  v_duplicate text;
  v_hash text;
BEGIN
  IF jsonb_typeof(p_content) IS DISTINCT FROM 'object' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'The run content must be an object.');
  END IF;
  IF v_currency IS NULL OR v_currency !~ '^[A-Z]{3}$' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'The run''s currency must be three capital letters.');
  END IF;
  IF jsonb_typeof(v_bears) IS DISTINCT FROM 'boolean' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'merchantBearsCost must be true or false.');
  END IF;
  IF length(v_description) > 200 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'The description is longer than 200 characters.');
  END IF;
  IF jsonb_typeof(v_rows) IS DISTINCT FROM 'array' OR jsonb_array_length(v_rows) NOT BETWEEN 1 AND 100000 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A run has 1 to 100,000 rows.');
  END IF;
  SELECT x.ord, x.problem INTO v_bad FROM (
    SELECT e.ord, CASE
      WHEN jsonb_typeof(e.value) <> 'object' THEN 'is not an object'
      WHEN jsonb_typeof(e.value -> 'reference') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'reference') NOT BETWEEN 1 AND 100 THEN 'reference must be 1 to 100 characters'
      WHEN jsonb_typeof(e.value -> 'amount') IS DISTINCT FROM 'string'
        OR (e.value ->> 'amount') !~ '^(0|[1-9][0-9]{0,14})\.[0-9]{2}$' THEN 'amount must be a plain amount with two decimals, such as 1500.00'
      WHEN (e.value ->> 'amount')::numeric <= 0 THEN 'amount must be more than zero'
      WHEN jsonb_typeof(e.value -> 'bank_code') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'bank_code') NOT BETWEEN 1 AND 20 THEN 'bank_code must be 1 to 20 characters'
      WHEN jsonb_typeof(e.value -> 'account_number') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'account_number') NOT BETWEEN 1 AND 40 THEN 'account_number must be 1 to 40 characters'
      WHEN jsonb_typeof(e.value -> 'customer_name') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'customer_name') > 200 THEN 'customer_name must be text of at most 200 characters'
      WHEN jsonb_typeof(e.value -> 'customer_email') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'customer_email') > 200 THEN 'customer_email must be text of at most 200 characters'
      WHEN jsonb_typeof(e.value -> 'narration') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'narration') > 200 THEN 'narration must be text of at most 200 characters'
    END AS problem
    FROM jsonb_array_elements(v_rows) WITH ORDINALITY AS e(value, ord)
  ) x WHERE x.problem IS NOT NULL ORDER BY x.ord LIMIT 1;
  IF v_bad.ord IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', format('Row %s of the run: %s.', v_bad.ord, v_bad.problem));
  END IF;
  SELECT e.value ->> 'reference' INTO v_duplicate
    FROM jsonb_array_elements(v_rows) AS e(value)
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
  IF v_duplicate IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', 'duplicate_reference', format('The reference %s appears more than once in the run.', v_duplicate));
  END IF;

  INSERT INTO payout_desk.run_versions (run_id, version, currency, merchant_bears_cost, description, row_count,
      total, content_hash, created_by)
    SELECT p_run_id, p_version, v_currency, v_bears::text::boolean, v_description, jsonb_array_length(v_rows),
      (SELECT sum((e.value ->> 'amount')::numeric) FROM jsonb_array_elements(v_rows) AS e(value)),
      repeat('0', 64), p_me;
  INSERT INTO payout_desk.run_rows (run_id, version, position, reference, amount, bank_code, account_number,
      customer_name, customer_email, narration)
    SELECT p_run_id, p_version, e.ord, e.value ->> 'reference', (e.value ->> 'amount')::numeric,
      e.value ->> 'bank_code', e.value ->> 'account_number', e.value ->> 'customer_name',
      e.value ->> 'customer_email', e.value ->> 'narration'
    FROM jsonb_array_elements(v_rows) WITH ORDINALITY AS e(value, ord);
  PERFORM payout_desk.store_row_payees(p_run_id, p_version, p_content -> 'payees', jsonb_array_length(v_rows));
  v_hash := payout_desk.sha256_hex(payout_desk.run_content_text(p_run_id, p_version));
  UPDATE payout_desk.run_versions SET content_hash = v_hash WHERE run_id = p_run_id AND version = p_version;
  INSERT INTO payout_desk.run_contributors (run_id, member) VALUES (p_run_id, p_me) ON CONFLICT DO NOTHING;
  RETURN v_hash;
END
$$;
