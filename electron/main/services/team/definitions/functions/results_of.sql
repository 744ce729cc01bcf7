-- The list of results a desk sends, as rows.
CREATE OR REPLACE FUNCTION payout_desk.results_of(p_results jsonb)
  RETURNS TABLE (ord bigint, reference text, outcome text, message text)
  LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT e.ord, e.value ->> 'reference', e.value ->> 'outcome', left(e.value ->> 'message', 300)
  FROM jsonb_array_elements(p_results) WITH ORDINALITY AS e(value, ord)
$$;
