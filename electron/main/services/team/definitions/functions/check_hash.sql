-- A hash check that cannot be skipped: the version must exist, the desk must say its hash.
CREATE OR REPLACE FUNCTION payout_desk.check_hash(p_given text, p_stored text, p_what text) RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF p_stored IS NULL THEN
    PERFORM payout_desk.fail('PT404', 'version_not_found', format('%s: there is no such version.', rtrim(p_what)));
  END IF;
  IF p_given IS NULL THEN
    PERFORM payout_desk.fail('PT400', 'missing_argument', format('%s: the content hash is required.', rtrim(p_what)));
  END IF;
  IF p_given <> p_stored THEN
    PERFORM payout_desk.fail('PT412', 'hash_mismatch', format('%s: the desk''s content hash %s does not match the team''s %s.',
      p_what, left(p_given, 12), left(p_stored, 12)));
  END IF;
END
$$;
