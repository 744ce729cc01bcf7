-- Whether session_user is the team's owner role (the one that owns the payout_desk schema).
CREATE OR REPLACE FUNCTION payout_desk.is_owner() RETURNS boolean
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT session_user::text = (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'payout_desk')
$$;
