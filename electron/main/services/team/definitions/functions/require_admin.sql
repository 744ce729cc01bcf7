-- Admin functions: an active admin member, or the owner (who bootstraps the team from the command).
CREATE OR REPLACE FUNCTION payout_desk.require_admin() RETURNS text
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF payout_desk.is_owner() THEN
    RETURN session_user::text;
  END IF;
  RETURN payout_desk.require_role('admin');
END
$$;
