-- One admin's half of a change to a team limit (decision 138): recorded as waiting (limit_changes)
-- with what it was and what it would be, and nothing takes effect until a second admin approves it
-- (approve_limit_change). A new proposal for the same limit replaces the one waiting.
CREATE OR REPLACE FUNCTION payout_desk.propose_limit_change(p_subject text, p_proposed jsonb) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
  proposed jsonb := payout_desk.limit_normalised(p_subject, p_proposed);
  current jsonb;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('payout_desk.limit:' || p_subject));
  current := payout_desk.limit_current(p_subject);
  IF proposed IS NOT DISTINCT FROM current THEN
    PERFORM payout_desk.fail('PT409', 'limit_unchanged', format('%s is already %s: there is nothing to change.',
      p_subject, coalesce(current::text, 'not set')));
  END IF;
  INSERT INTO payout_desk.limit_changes (subject, proposed, proposed_by) VALUES (p_subject, proposed, me)
    ON CONFLICT (subject) DO UPDATE
      SET proposed = excluded.proposed, proposed_by = excluded.proposed_by, proposed_at = now();
  PERFORM payout_desk.append_audit('limit_change_proposed', NULL, p_subject,
    jsonb_build_object('from', current, 'to', proposed), NULL);
  RETURN jsonb_build_object('subject', p_subject, 'from', current, 'to', proposed, 'proposedBy', me);
END
$$;
