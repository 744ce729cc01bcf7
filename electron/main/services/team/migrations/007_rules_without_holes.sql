-- 007: the rules the database holds, without holes (decision 64).
--
-- * NULL where a value is required is refused, naming what is missing. A NULL version or content
--   hash used to skip checks: `x <> NULL` is NULL, and an IF on NULL does nothing, so
--   submit_run(run, NULL, NULL, desk) moved a draft to awaiting approval with no version and no
--   hash, and revise_run(run, NULL, ...) made a new version without the stale-version check. The
--   helpers every write uses (check_hash, releasable_run) refuse NULL, and the functions whose own
--   checks let NULL through are redefined with an explicit check (and nothing else changed).
-- * A version's review is fixed with the version: it is written only in the transaction that
--   stores the version. The six-argument create_run and revise_run answer a repeat of themselves
--   (the idempotent path) without storing anything; a version stored without a review (from psql,
--   or before 005) can no longer get one afterwards, least of all once it was submitted or
--   approved: approvers decided on what they were shown.
-- * A lease that ran out is never renewed: renew_claim refuses it, and the desk must claim again,
--   which fails while another desk holds the claim.

-- A hash check that cannot be skipped: the version must exist, the desk must say its hash.
CREATE OR REPLACE FUNCTION payout_desk.check_hash(p_given text, p_stored text, p_what text) RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF p_stored IS NULL THEN
    PERFORM payout_desk.fail('PT404', format('%s: there is no such version.', rtrim(p_what)));
  END IF;
  IF p_given IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('%s: the content hash is required.', rtrim(p_what)));
  END IF;
  IF p_given <> p_stored THEN
    PERFORM payout_desk.fail('PT412', format('%s: the desk''s content hash %s does not match the team''s %s.',
      p_what, left(p_given, 12), left(p_stored, 12)));
  END IF;
END
$$;

-- releasable_run as 004 made it, refusing a missing version or hash by name first.
CREATE OR REPLACE FUNCTION payout_desk.releasable_run(p_run_id text, p_version integer, p_hash text)
  RETURNS payout_desk.runs
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  run payout_desk.runs;
  version_row payout_desk.run_versions;
BEGIN
  IF p_version IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('A version is required: say which version of run %s is released.',
      coalesce(p_run_id, '(none)')));
  END IF;
  run := payout_desk.lock_run(p_run_id);
  IF run.state NOT IN ('approved', 'releasing') THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s: only an approved run is released.', p_run_id,
      replace(run.state, '_', ' ')));
  END IF;
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s version %s is approved, not version %s.', p_run_id,
      run.current_version, p_version));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  IF version_row.approved_at IS NULL THEN
    PERFORM payout_desk.fail('PT409', format('Run %s version %s is not approved.', p_run_id, p_version));
  END IF;
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash,
    format('Run %s version %s as approved', p_run_id, p_version));
  RETURN run;
END
$$;

-- submit_run as 002 made it, with the version and the hash required.
CREATE OR REPLACE FUNCTION payout_desk.submit_run(p_run_id text, p_version integer, p_hash text, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('preparer');
  run payout_desk.runs;
  version_row payout_desk.run_versions;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  IF p_version IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('A version is required: say which version of run %s is submitted.',
      coalesce(p_run_id, '(none)')));
  END IF;
  IF p_hash IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('The content hash of run %s version %s is required.',
      coalesce(p_run_id, '(none)'), p_version));
  END IF;
  run := payout_desk.lock_run(p_run_id);
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s changed meanwhile: version %s is current, not %s.',
      p_run_id, run.current_version, p_version));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash, format('Run %s version %s', p_run_id, p_version));
  IF run.state = 'awaiting_approval' THEN
    RETURN payout_desk.run_view(p_run_id);
  END IF;
  IF run.state <> 'draft' THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s; only a draft is submitted for approval%s.', p_run_id,
      replace(run.state, '_', ' '),
      CASE WHEN run.state = 'rejected' THEN ' (change it first: that makes a new version)' ELSE '' END));
  END IF;
  UPDATE payout_desk.runs SET state = 'awaiting_approval', updated_at = now() WHERE run_id = p_run_id;
  UPDATE payout_desk.run_versions SET submitted_at = now() WHERE run_id = p_run_id AND version = p_version;
  PERFORM payout_desk.append_audit('run_submitted', p_run_id, NULL, jsonb_build_object(
    'version', p_version, 'contentHash', version_row.content_hash, 'total', version_row.total::text,
    'currency', version_row.currency, 'rows', version_row.row_count,
    'approvalsRequired', payout_desk.approvals_required(version_row.currency, version_row.total)), p_desk);
  RETURN payout_desk.run_view(p_run_id);
END
$$;

-- revise_run as 002 made it, with the base version required (without it the stale-version check
-- compared with NULL and let any change through).
CREATE OR REPLACE FUNCTION payout_desk.revise_run(p_run_id text, p_base_version integer, p_desk text, p_content jsonb,
    p_hash text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('preparer');
  run payout_desk.runs;
  next_version integer;
  stored text;
  voided jsonb;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  IF p_base_version IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('A base version is required: say which version of run %s you changed.',
      coalesce(p_run_id, '(none)')));
  END IF;
  IF p_hash IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('The content hash of the new version of run %s is required.',
      coalesce(p_run_id, '(none)')));
  END IF;
  run := payout_desk.lock_run(p_run_id);
  IF run.current_version = p_base_version + 1
     AND (SELECT created_by = me AND content_hash = p_hash FROM payout_desk.run_versions
          WHERE run_id = p_run_id AND version = run.current_version) THEN
    RETURN payout_desk.run_view(p_run_id); -- the same revision asked again
  END IF;
  IF run.state IN ('releasing', 'completed') THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s: it can no longer be changed.', p_run_id,
      CASE run.state WHEN 'releasing' THEN 'being released' ELSE 'completed' END));
  END IF;
  IF run.current_version <> p_base_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s changed meanwhile: version %s is current, not %s.',
      p_run_id, run.current_version, p_base_version));
  END IF;
  next_version := run.current_version + 1;
  stored := payout_desk.store_version(p_run_id, next_version, p_content, me);
  PERFORM payout_desk.check_hash(p_hash, stored, format('Run %s version %s', p_run_id, next_version));
  SELECT jsonb_agg(d.decided_by ORDER BY d.decided_at) INTO voided FROM payout_desk.run_decisions d
    WHERE d.run_id = p_run_id AND d.version = run.current_version AND d.decision = 'approved';
  UPDATE payout_desk.runs SET current_version = next_version, state = 'draft', updated_at = now()
    WHERE run_id = p_run_id;
  PERFORM payout_desk.append_audit('run_revised', p_run_id, NULL, jsonb_build_object(
    'version', next_version, 'previousVersion', run.current_version, 'contentHash', stored,
    'previousState', run.state), p_desk);
  IF voided IS NOT NULL THEN
    PERFORM payout_desk.append_audit('approval_voided', p_run_id, NULL, jsonb_build_object(
      'version', run.current_version, 'approvedBy', voided, 'wasApproved', run.state = 'approved',
      'becauseOfVersion', next_version,
      'message', format('The approval of version %s is void: %s changed the run (version %s).',
        run.current_version, me, next_version)), p_desk);
  END IF;
  RETURN payout_desk.run_view(p_run_id);
END
$$;

-- reject_run as 002 made it, with the version reviewed required (NULL reached the insert of the
-- decision and failed there on a NOT NULL column, with the database's text, not the team's).
CREATE OR REPLACE FUNCTION payout_desk.reject_run(p_run_id text, p_version integer, p_reason text, p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  run payout_desk.runs;
  version_row payout_desk.run_versions;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  IF p_version IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('A version is required: say which version of run %s you reviewed.',
      coalesce(p_run_id, '(none)')));
  END IF;
  run := payout_desk.lock_run(p_run_id);
  PERFORM payout_desk.require_checker(p_run_id, me, 'reject');
  IF p_reason IS NULL OR length(btrim(p_reason)) NOT BETWEEN 1 AND 500 THEN
    PERFORM payout_desk.fail('PT400', 'A rejection needs a reason of 1 to 500 characters.');
  END IF;
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s changed: version %s is current, not the version %s you reviewed.',
      p_run_id, run.current_version, p_version));
  END IF;
  IF run.state <> 'awaiting_approval' THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s, not awaiting approval.', p_run_id, replace(run.state, '_', ' ')));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  INSERT INTO payout_desk.run_decisions (run_id, version, decided_by, decision, content_hash, reason)
    VALUES (p_run_id, p_version, me, 'rejected', version_row.content_hash, btrim(p_reason))
    ON CONFLICT (run_id, version, decided_by) DO UPDATE
      SET decision = 'rejected', reason = excluded.reason, decided_at = now();
  UPDATE payout_desk.runs SET state = 'rejected', updated_at = now() WHERE run_id = p_run_id;
  PERFORM payout_desk.append_audit('run_rejected', p_run_id, NULL, jsonb_build_object(
    'version', p_version, 'reason', btrim(p_reason)), p_desk);
  RETURN payout_desk.run_view(p_run_id);
END
$$;

-- set_member_active as 001 made it, with the login and the flag required.
CREATE OR REPLACE FUNCTION payout_desk.set_member_active(login text, active boolean) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
BEGIN
  IF login IS NULL THEN
    PERFORM payout_desk.fail('PT400', 'A member login is required.');
  END IF;
  IF active IS NULL THEN
    PERFORM payout_desk.fail('PT400', format('Say whether %s is active (true) or removed (false).', login));
  END IF;
  IF login = me THEN
    PERFORM payout_desk.fail('PT403', 'An admin cannot change their own membership; another admin must.');
  END IF;
  UPDATE payout_desk.members m SET active = set_member_active.active WHERE m.login = set_member_active.login;
  IF NOT FOUND THEN
    PERFORM payout_desk.fail('PT404', format('%s is not a member of this team.', login));
  END IF;
  PERFORM payout_desk.append_audit('member_active_set', NULL, login, jsonb_build_object('active', active), NULL);
  RETURN jsonb_build_object('login', login, 'active', active);
END
$$;

-- A version's review is written with the version, in the transaction that stores it, by its
-- maker; never afterwards. A repeat of the call that stored it (the same create or revise asked
-- again) changes nothing: the first review stays. A version stored without one keeps none.
-- (The version's row was inserted by this transaction exactly when its created_at, the default
-- now(), is this transaction's start.)
CREATE OR REPLACE FUNCTION payout_desk.store_review(p_run_id text, p_version integer, p_review jsonb, p_me text)
  RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  version_row payout_desk.run_versions;
  problem text;
BEGIN
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version FOR UPDATE;
  IF version_row.run_id IS NULL THEN
    PERFORM payout_desk.fail('PT404', format('Run %s has no version %s.', coalesce(p_run_id, '(none)'), p_version));
  END IF;
  IF version_row.created_by IS DISTINCT FROM p_me THEN
    PERFORM payout_desk.fail('PT403', format('%s did not make version %s of run %s, so cannot record its review.',
      p_me, p_version, p_run_id));
  END IF;
  problem := payout_desk.review_problem(p_review, version_row.row_count, version_row.merchant_bears_cost);
  IF problem IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', format('The review figures of run %s %s.', p_run_id, problem));
  END IF;
  IF version_row.review IS NOT NULL THEN
    RETURN; -- asked again: the review stored with the version stays
  END IF;
  IF version_row.created_at <> transaction_timestamp() OR version_row.submitted_at IS NOT NULL
     OR version_row.approved_at IS NOT NULL THEN
    PERFORM payout_desk.fail('PT409', format(
      'Version %s of run %s was stored without review figures%s; a review is fixed with its version. Share a new version to show approvers a review.',
      p_version, p_run_id, CASE WHEN version_row.approved_at IS NOT NULL THEN ' and approved as it was'
                                WHEN version_row.submitted_at IS NOT NULL THEN ' and submitted as it was'
                                ELSE '' END));
  END IF;
  UPDATE payout_desk.run_versions SET review = p_review WHERE run_id = p_run_id AND version = p_version;
END
$$;

-- renew_claim as 003 made it, except that a lease that ran out is not renewed: the claim is
-- anyone's to take over from then on, so its holder must claim it again (and is refused while
-- another desk holds it). A claim whose payouts are all final has nothing left to renew.
CREATE OR REPLACE FUNCTION payout_desk.renew_claim(p_reference text, p_desk text, p_lease_seconds integer)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  existing payout_desk.claims;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  IF p_lease_seconds IS NULL OR p_lease_seconds NOT BETWEEN 1 AND 3600 THEN
    PERFORM payout_desk.fail('PT400', 'A lease is 1 to 3600 seconds.');
  END IF;
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference FOR UPDATE;
  IF existing.reference IS NULL OR existing.state = 'released' THEN
    PERFORM payout_desk.fail('PT404', format('There is no claim on %s.', coalesce(p_reference, '(none)')));
  END IF;
  IF existing.holder_desk <> p_desk THEN
    PERFORM payout_desk.fail('PT423', format('%s was taken over by %s on desk %s.', p_reference, existing.holder,
      existing.holder_desk));
  END IF;
  IF existing.state = 'held' AND existing.lease_until <= now() THEN
    PERFORM payout_desk.fail('PT409', format(
      'The lease of %s ran out at %s: it is not renewed. Claim it again (refused while another desk holds it).',
      p_reference, payout_desk.iso(existing.lease_until)));
  END IF;
  IF existing.state = 'held' THEN
    UPDATE payout_desk.claims SET lease_until = now() + make_interval(secs => p_lease_seconds)
      WHERE reference = p_reference;
  END IF;
  RETURN payout_desk.claim_answer(p_reference, 'renewed', NULL);
END
$$;
