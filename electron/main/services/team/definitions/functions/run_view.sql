-- What a desk sees of a run: its current version, approvals, rejection, contributors, who released
-- it, the version this member last saw, the version's review (decision 44) and what the database
-- checked of it from the rows (decision 105), and its payee checks with their confirmations
-- (decision 135). Security definer
-- so the team_runs view can call it for its reader; it shows nothing to a non-member.
CREATE OR REPLACE FUNCTION payout_desk.run_view(p_run_id text) RETURNS jsonb
  LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT jsonb_build_object(
    'runId', r.run_id, 'label', r.label, 'state', r.state, 'version', r.current_version,
    'preparedBy', r.prepared_by, 'createdAt', payout_desk.iso(r.created_at), 'updatedAt', payout_desk.iso(r.updated_at),
    'currency', v.currency, 'merchantBearsCost', v.merchant_bears_cost, 'description', v.description,
    'rows', v.row_count, 'total', v.total::text, 'contentHash', v.content_hash,
    'versionBy', v.created_by, 'versionAt', payout_desk.iso(v.created_at),
    'submittedAt', payout_desk.iso(v.submitted_at), 'approvedAt', payout_desk.iso(v.approved_at),
    'approvalsRequired', payout_desk.run_approvals_required(v.run_id, v.version),
    'limitAsksApprover', EXISTS (SELECT 1 FROM payout_desk.limit_rules l
        WHERE l.on_breach = 'approver' AND l.kind <> 'per_payout' AND l.currency = v.currency)
      OR EXISTS (SELECT 1 FROM payout_desk.limit_settings s WHERE s.hours_on_breach = 'approver'),
    'approvals', coalesce((
      SELECT jsonb_agg(jsonb_build_object('by', d.decided_by, 'at', payout_desk.iso(d.decided_at)) ORDER BY d.decided_at)
      FROM payout_desk.run_decisions d
      WHERE d.run_id = r.run_id AND d.version = r.current_version AND d.decision = 'approved'), '[]'::jsonb),
    'rejection', (
      SELECT jsonb_build_object('by', d.decided_by, 'at', payout_desk.iso(d.decided_at), 'reason', d.reason,
        'version', d.version)
      FROM payout_desk.run_decisions d
      WHERE d.run_id = r.run_id AND d.decision = 'rejected'
      ORDER BY d.decided_at DESC LIMIT 1),
    'contributors', (SELECT jsonb_agg(c.member ORDER BY c.member) FROM payout_desk.run_contributors c
      WHERE c.run_id = r.run_id),
    'releasedBy', coalesce((SELECT jsonb_agg(DISTINCT h.holder) FROM payout_desk.claim_holders h
      JOIN payout_desk.claims c ON c.reference = h.claim_reference WHERE c.run_id = r.run_id), '[]'::jsonb),
    'lastSeenVersion', (SELECT s.version FROM payout_desk.run_seen s
      WHERE s.run_id = r.run_id AND s.member = session_user::text),
    'review', v.review,
    'checked', payout_desk.review_checks(v.run_id, v.version),
    'payeeChecks', payout_desk.run_payee_checks(v.run_id, v.version))
  FROM payout_desk.runs r
  JOIN payout_desk.run_versions v ON v.run_id = r.run_id AND v.version = r.current_version
  WHERE r.run_id = p_run_id AND payout_desk.is_member()
$$;
