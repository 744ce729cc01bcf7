-- The roles session_user holds in this team right now (both the table and the group agree).
CREATE OR REPLACE FUNCTION payout_desk.session_roles() RETURNS text[]
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT coalesce(array_agg(r ORDER BY r), '{}')
  FROM payout_desk.members m, unnest(m.roles) AS r
  WHERE m.login = session_user::text AND m.active
    AND pg_has_role(session_user, 'payout_desk_' || r, 'MEMBER')
$$;
