-- Names the team (an admin, or the owner bootstrapping it).
CREATE OR REPLACE FUNCTION payout_desk.set_team_name(name text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  PERFORM payout_desk.require_admin();
  IF name IS NULL OR length(btrim(name)) NOT BETWEEN 1 AND 80 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A team name is 1 to 80 characters.');
  END IF;
  INSERT INTO payout_desk.team (name) VALUES (btrim(name))
    ON CONFLICT (singleton) DO UPDATE SET name = excluded.name;
  PERFORM payout_desk.append_audit('team_named', NULL, NULL, jsonb_build_object('name', btrim(name)), NULL);
  RETURN jsonb_build_object('name', btrim(name));
END
$$;
