-- Whether session_user is an active member of this team (views call it for their reader).
CREATE OR REPLACE FUNCTION payout_desk.is_member() RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT cardinality(payout_desk.session_roles()) > 0
$$;
