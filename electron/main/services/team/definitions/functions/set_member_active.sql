-- Removes a member from the team, or takes them back (their login stays, as another team may use
-- it; the group memberships this team gave stay too, but every function checks the members table,
-- so they count for nothing here). The login and the flag are required.
CREATE OR REPLACE FUNCTION payout_desk.set_member_active(login text, active boolean) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
BEGIN
  PERFORM payout_desk.require_given(login, 'A member login is required.');
  PERFORM payout_desk.require_given(active, format('Say whether %s is active (true) or removed (false).', login));
  IF login = me THEN
    PERFORM payout_desk.fail('PT403', 'own_membership', 'An admin cannot change their own membership; another admin must.');
  END IF;
  UPDATE payout_desk.members m SET active = set_member_active.active WHERE m.login = set_member_active.login;
  IF NOT FOUND THEN
    PERFORM payout_desk.fail('PT404', 'member_not_found', format('%s is not a member of this team.', login));
  END IF;
  PERFORM payout_desk.append_audit('member_active_set', NULL, login, jsonb_build_object('active', active), NULL);
  RETURN jsonb_build_object('login', login, 'active', active);
END
$$;
