-- The desk a member names in a call: registered, and theirs.
CREATE OR REPLACE FUNCTION payout_desk.require_desk(desk text) RETURNS text
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  owner_login text;
BEGIN
  SELECT member INTO owner_login FROM payout_desk.desks WHERE desk_id = desk;
  IF owner_login IS NULL THEN
    PERFORM payout_desk.fail('PT400', 'desk_unregistered', format('The desk %s is not registered with this team.', coalesce(desk, '(none)')));
  END IF;
  IF owner_login <> session_user::text THEN
    PERFORM payout_desk.fail('PT403', 'desk_of_another_member', format('The desk %s belongs to another member.', desk));
  END IF;
  RETURN desk;
END
$$;
