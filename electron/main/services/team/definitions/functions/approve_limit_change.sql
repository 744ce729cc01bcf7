-- The second admin's half of a change to a team limit (decision 138): the admin who proposed it
-- cannot approve it, and what is approved is what the approver was shown (p_proposed, the value
-- waiting; a proposal replaced meanwhile is refused, limit_change_differs). It then takes effect
-- and the audit trail records who proposed and who approved it, and the old and new values.
CREATE OR REPLACE FUNCTION payout_desk.approve_limit_change(p_subject text, p_proposed jsonb) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
  shown jsonb := payout_desk.limit_normalised(p_subject, p_proposed);
  waiting payout_desk.limit_changes;
  current jsonb;
  subject_kind text := split_part(p_subject, ':', 1);
  subject_currency text := split_part(p_subject, ':', 2);
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('payout_desk.limit:' || p_subject));
  SELECT * INTO waiting FROM payout_desk.limit_changes c WHERE c.subject = p_subject FOR UPDATE;
  IF waiting.subject IS NULL THEN
    PERFORM payout_desk.fail('PT404', 'limit_change_not_found', format('No change to %s waits to be approved.', p_subject));
  END IF;
  IF waiting.proposed_by = me THEN
    PERFORM payout_desk.fail('PT403', 'own_request', format(
      'You proposed this change to %s; a second admin must approve it.', p_subject));
  END IF;
  IF waiting.proposed IS DISTINCT FROM shown THEN
    PERFORM payout_desk.fail('PT409', 'limit_change_differs', format(
      'The change waiting for %s is %s, not %s: look at it again before approving.', p_subject,
      coalesce(waiting.proposed::text, 'removing it'), coalesce(shown::text, 'removing it')));
  END IF;
  current := payout_desk.limit_current(p_subject);
  IF subject_kind = 'time_zone' THEN
    UPDATE payout_desk.limit_settings SET time_zone = shown ->> 'timeZone';
  ELSIF subject_kind = 'hours' THEN
    UPDATE payout_desk.limit_settings
      SET hours_from = shown ->> 'from', hours_to = shown ->> 'to', hours_on_breach = shown ->> 'onBreach';
  ELSIF shown IS NULL THEN
    DELETE FROM payout_desk.limit_rules l WHERE l.kind = subject_kind AND l.currency = subject_currency;
  ELSE
    INSERT INTO payout_desk.limit_rules (kind, currency, value, on_breach, proposed_by, approved_by)
      VALUES (subject_kind, subject_currency, (shown ->> 'value')::numeric, shown ->> 'onBreach', waiting.proposed_by, me)
      ON CONFLICT ON CONSTRAINT limit_rules_pkey DO UPDATE
        SET value = excluded.value, on_breach = excluded.on_breach, proposed_by = excluded.proposed_by,
            approved_by = excluded.approved_by, set_at = now();
  END IF;
  DELETE FROM payout_desk.limit_changes c WHERE c.subject = p_subject;
  PERFORM payout_desk.append_audit('limit_changed', NULL, p_subject, jsonb_build_object(
    'from', current, 'to', shown, 'proposedBy', waiting.proposed_by,
    'proposedAt', payout_desk.iso(waiting.proposed_at), 'approvedBy', me), NULL);
  RETURN jsonb_build_object('subject', p_subject, 'from', current, 'to', shown,
    'proposedBy', waiting.proposed_by, 'approvedBy', me);
END
$$;
