-- One field of a hashed text: backslash, tab, newline and carriage return escaped, as in
-- shared/team/canonical-text.ts. Both sides must produce the same bytes.
CREATE OR REPLACE FUNCTION payout_desk.hash_field(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT replace(replace(replace(replace(value, E'\\', E'\\\\'), E'\t', E'\\t'), E'\n', E'\\n'), E'\r', E'\\r')
$$;
