-- The team, the calling member and their roles, and the schema version (a desk checks it).
CREATE OR REPLACE FUNCTION payout_desk.whoami() RETURNS jsonb
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
BEGIN
  RETURN jsonb_build_object(
    'team', (SELECT jsonb_build_object('name', t.name) FROM payout_desk.team t),
    'member', (SELECT jsonb_build_object('login', m.login, 'displayName', m.display_name,
      'roles', to_jsonb(payout_desk.session_roles())) FROM payout_desk.members m WHERE m.login = me),
    'schemaVersion', (SELECT max(version) FROM payout_desk.schema_migrations));
END
$$;
