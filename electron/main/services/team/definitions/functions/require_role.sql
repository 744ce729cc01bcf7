-- Checks that session_user is an active member holding `wanted` (any role when null); returns the login.
CREATE OR REPLACE FUNCTION payout_desk.require_role(wanted text) RETURNS text
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  held text[] := payout_desk.session_roles();
BEGIN
  IF cardinality(held) = 0 THEN
    PERFORM payout_desk.fail('PT401', 'not_member', format('%s is not an active member of this team.', session_user));
  END IF;
  IF wanted IS NOT NULL AND NOT wanted = ANY (held) THEN
    PERFORM payout_desk.fail('PT403', 'role_missing', format('%s is not %s in this team (roles: %s).', session_user,
      CASE wanted WHEN 'admin' THEN 'an admin' WHEN 'approver' THEN 'an approver' ELSE 'a preparer' END,
      array_to_string(held, ', ')));
  END IF;
  RETURN session_user::text;
END
$$;
