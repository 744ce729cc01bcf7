-- Raises one of the team's refusals (decision 86). The SQLSTATE, of class PT, says what kind:
-- PT400 bad input, PT401 not a member, PT403 not allowed (role, self-approval), PT404 not found,
-- PT409 conflict (state, stale version), PT412 content hash mismatch, PT423 claim held by another
-- desk. The reason, the error's DETAIL, says which one in a word a desk acts on (the list and what
-- each means to the app: shared/team/refusals.ts); the message is written for people.
CREATE OR REPLACE FUNCTION payout_desk.fail(code text, reason text, message text) RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF code IS NULL OR code !~ '^PT[0-9]{3}$' OR reason IS NULL OR reason !~ '^[a-z][a-z_]*$' THEN
    RAISE EXCEPTION 'payout_desk.fail(%, %, ...): a refusal has a PT code and a reason in snake_case.', code, reason;
  END IF;
  RAISE EXCEPTION USING ERRCODE = code, DETAIL = reason, MESSAGE = message;
END
$$;
