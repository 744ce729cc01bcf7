-- Drops a change to a team limit that waits for a second admin (decision 138): any admin may, the
-- one who proposed it or one who will not approve it. Recorded in the audit trail.
CREATE OR REPLACE FUNCTION payout_desk.withdraw_limit_change(p_subject text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
  waiting payout_desk.limit_changes;
BEGIN
  PERFORM payout_desk.require_given(p_subject, 'Say which limit''s change to withdraw.');
  DELETE FROM payout_desk.limit_changes c WHERE c.subject = p_subject RETURNING * INTO waiting;
  IF waiting.subject IS NULL THEN
    PERFORM payout_desk.fail('PT404', 'limit_change_not_found', format('No change to %s waits to be approved.', p_subject));
  END IF;
  PERFORM payout_desk.append_audit('limit_change_withdrawn', NULL, p_subject, jsonb_build_object(
    'to', waiting.proposed, 'proposedBy', waiting.proposed_by), NULL);
  RETURN jsonb_build_object('subject', p_subject, 'withdrawnBy', me);
END
$$;
