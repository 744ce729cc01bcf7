-- Every privilege of the team database, in one place (decision 85). Applied after the migrations
-- and the definitions, in the same transaction, whenever any of them or this file changed: it
-- first takes every privilege on the schema's functions and views from the groups and PUBLIC,
-- then grants each by name, so what is written here is exactly what a desk may do.
--
-- Desks (members in the three group roles) get no INSERT, UPDATE or DELETE on any table: every
-- write is a SECURITY DEFINER function that checks session_user, every read a view that shows
-- nothing to a non-member (decision 38).

-- ---- The database: only the three groups may connect; nobody but the owner creates anything.
DO $$
BEGIN
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', pg_catalog.current_database());
  EXECUTE format(
    'GRANT CONNECT ON DATABASE %I TO payout_desk_preparer, payout_desk_approver, payout_desk_admin',
    pg_catalog.current_database()
  );
END
$$;
REVOKE ALL ON SCHEMA public FROM PUBLIC;
REVOKE ALL ON SCHEMA payout_desk FROM PUBLIC;
GRANT USAGE ON SCHEMA payout_desk TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;

-- ---- From nothing: no function or view of the schema is anyone's but the owner's.
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA payout_desk
  FROM PUBLIC, payout_desk_preparer, payout_desk_approver, payout_desk_admin;
REVOKE ALL ON ALL TABLES IN SCHEMA payout_desk
  FROM PUBLIC, payout_desk_preparer, payout_desk_approver, payout_desk_admin;

-- ---- Reads: every member reads the views (each shows nothing to a non-member).
GRANT SELECT ON payout_desk.team_members, payout_desk.team_thresholds, payout_desk.audit_trail,
  payout_desk.team_runs, payout_desk.team_run_rows, payout_desk.team_run_decisions, payout_desk.team_run_versions,
  payout_desk.team_claims, payout_desk.team_claim_items, payout_desk.team_payment_memory,
  payout_desk.team_recent_payouts, payout_desk.team_member_changes, payout_desk.team_limits
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;

-- ---- Every member. Views call is_member, iso and iso_us as the reader, so readers may execute
-- them (they reveal nothing by themselves); run_view is the team_runs view's.
GRANT EXECUTE ON FUNCTION payout_desk.whoami(), payout_desk.register_desk(text, text),
  payout_desk.register_desk(text, text, text), payout_desk.audit_verify(), payout_desk.is_member(),
  payout_desk.iso(timestamptz), payout_desk.iso_us(timestamptz), payout_desk.run_view(text),
  payout_desk.mark_run_seen(text, integer), payout_desk.run_content(text, integer),
  payout_desk.record_results(text, text, jsonb), payout_desk.limits_view(),
  payout_desk.confirm_payee(text, integer, integer, text, text, text)
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;

-- ---- Admins: the team's name, thresholds and members.
GRANT EXECUTE ON FUNCTION payout_desk.set_team_name(text), payout_desk.set_threshold(text, text),
  payout_desk.add_member(text, text, text[], text), payout_desk.set_member_active(text, boolean),
  payout_desk.confirm_member_change(text, text)
  TO payout_desk_admin;

-- ---- Admins: the team's limits, each change proposed by one and approved by a second (decision 138).
GRANT EXECUTE ON FUNCTION payout_desk.propose_limit_change(text, jsonb),
  payout_desk.approve_limit_change(text, jsonb), payout_desk.withdraw_limit_change(text)
  TO payout_desk_admin;

-- ---- Preparers: share a run, change it, submit it.
-- Only the calls that carry the review (decision 105): the five-argument ones are dropped (010).
GRANT EXECUTE ON FUNCTION payout_desk.create_run(text, text, text, jsonb, text, jsonb),
  payout_desk.revise_run(text, integer, text, jsonb, text, jsonb),
  payout_desk.submit_run(text, integer, text, text)
  TO payout_desk_preparer;

-- ---- Approvers: approve or reject a run, and release it (claims).
GRANT EXECUTE ON FUNCTION payout_desk.approve_run(text, integer, text, text, text),
  payout_desk.reject_run(text, integer, text, text),
  payout_desk.claim(text, integer, text, text, text, text[], text, integer),
  payout_desk.claim_batches(text, integer, text, jsonb, text, integer),
  payout_desk.renew_claim(text, text, integer), payout_desk.release_claim(text, text, text)
  TO payout_desk_approver;

-- ---- Every member: a reconciled period's explanations, confirmations, close and reopening, and
-- the team's payouts it is matched against (decision 149). Any role: an accountant closing the
-- month may be a preparer or an approver.
GRANT SELECT ON payout_desk.team_recon_payouts TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
GRANT EXECUTE ON FUNCTION payout_desk.recon_period(text, text),
  payout_desk.recon_record_alerts(text, text[], text),
  payout_desk.recon_explain(text, text, text, text, text, text), payout_desk.recon_confirm(text, text, text),
  payout_desk.recon_close(text, integer, text[], jsonb, text), payout_desk.recon_reopen(text, text, text)
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
