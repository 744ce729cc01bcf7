-- The list of results a desk sends, as rows: each payout's outcome, the service's message and the
-- fee the service reported for it (decision 150), as the desk's text (checked by record_results).
CREATE OR REPLACE FUNCTION payout_desk.results_of(p_results jsonb)
  RETURNS TABLE (ord bigint, reference text, outcome text, message text, fee text)
  LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT e.ord, e.value ->> 'reference', e.value ->> 'outcome', left(e.value ->> 'message', 300), e.value ->> 'fee'
  FROM jsonb_array_elements(p_results) WITH ORDINALITY AS e(value, ord)
$$;
