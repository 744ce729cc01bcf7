-- SHA-256 of a text's UTF-8 bytes, in hex (content and audit hashes).
CREATE OR REPLACE FUNCTION payout_desk.sha256_hex(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT encode(sha256(convert_to(value, 'UTF8')), 'hex')
$$;
