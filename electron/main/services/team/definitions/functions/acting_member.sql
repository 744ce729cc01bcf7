-- The member making a call from a desk (decision 115): an active member holding `p_role` (any role
-- when NULL), and the desk registered and theirs. Returns the login. The role is checked first, as
-- each call did before it named this.
CREATE OR REPLACE FUNCTION payout_desk.acting_member(p_role text, p_desk text) RETURNS text
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  login text := payout_desk.require_role(p_role);
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  RETURN login;
END
$$;
