-- The canonical text of a version's content: what shared/team/run-content.ts hashes.
CREATE OR REPLACE FUNCTION payout_desk.run_content_text(p_run_id text, p_version integer) RETURNS text
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT 'payout-desk run content v1' || E'\n'
      || 'currency:' || v.currency || E'\n'
      || 'merchant_bears_cost:' || CASE WHEN v.merchant_bears_cost THEN 'true' ELSE 'false' END || E'\n'
      || 'rows:' || (SELECT count(*) FROM payout_desk.run_rows r WHERE r.run_id = v.run_id AND r.version = v.version)::text
      || E'\n'
      || coalesce((
           SELECT string_agg(
                    payout_desk.hash_field(r.reference) || E'\t' || r.amount::text || E'\t'
                    || payout_desk.hash_field(r.bank_code) || E'\t' || payout_desk.hash_field(r.account_number) || E'\t'
                    || payout_desk.hash_field(r.customer_name) || E'\t' || payout_desk.hash_field(r.customer_email) || E'\t'
                    || payout_desk.hash_field(r.narration) || E'\n',
                    '' ORDER BY r.position)
           FROM payout_desk.run_rows r WHERE r.run_id = v.run_id AND r.version = v.version), '')
  FROM payout_desk.run_versions v
  WHERE v.run_id = p_run_id AND v.version = p_version
$$;
