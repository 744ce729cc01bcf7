-- Refuses `p_member`'s first claim in a run version when the rest of the run would break a team
-- limit (decision 138): a limit set to refuse refuses it (limit_exceeded); a limit set to ask one
-- more approver lets it through only once the run has, from members other than the one releasing,
-- one approval more than its total requires (limit_needs_approver). Counted under a lock per
-- member, so two desks of one member that release at once are counted one after the other.
CREATE OR REPLACE FUNCTION payout_desk.release_within_limits(p_member text, p_run_id text, p_version integer)
  RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  breaches jsonb;
  refused jsonb;
  asking jsonb;
  version_row payout_desk.run_versions;
  needed integer;
  others integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('payout_desk.limits:' || p_member));
  breaches := payout_desk.limit_breaches(p_member, p_run_id, p_version);
  SELECT b INTO refused FROM jsonb_array_elements(breaches) b WHERE b ->> 'onBreach' = 'refuse' LIMIT 1;
  IF refused IS NOT NULL THEN
    PERFORM payout_desk.fail('PT403', 'limit_exceeded', refused ->> 'message');
  END IF;
  SELECT b INTO asking FROM jsonb_array_elements(breaches) b WHERE b ->> 'onBreach' = 'approver' LIMIT 1;
  IF asking IS NULL THEN
    RETURN;
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  needed := payout_desk.approvals_required(version_row.currency, version_row.total) + 1;
  SELECT count(*) INTO others FROM payout_desk.run_decisions d
    WHERE d.run_id = p_run_id AND d.version = p_version AND d.decision = 'approved' AND d.decided_by <> p_member;
  IF others < needed THEN
    PERFORM payout_desk.fail('PT403', 'limit_needs_approver', format(
      '%s The team asks one more approver for this: run %s needs %s %s from members other than %s, and has %s.',
      asking ->> 'message', p_run_id, needed, CASE WHEN needed = 1 THEN 'approval' ELSE 'approvals' END, p_member, others));
  END IF;
END
$$;
