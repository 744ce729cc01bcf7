-- What an approver is shown of a version's payee checks (decision 135): whether the sharing desk
-- reported them, the flags counted by kind, the rows held now and those confirmed, and the flagged
-- rows (held and confirmed ones first, at most 1000; `more` counts the rest) each with its flags
-- and the confirmation that answers it: how, who, when, the note, and in which run. NULL for no
-- such version. Called by run_view.
CREATE OR REPLACE FUNCTION payout_desk.run_payee_checks(p_run_id text, p_version integer) RETURNS jsonb
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  WITH flagged AS (
    SELECT p.*, r.reference, r.customer_name, c.confirmation
      FROM payout_desk.run_row_payees p
      JOIN payout_desk.run_rows r ON r.run_id = p.run_id AND r.version = p.version AND r.position = p.position
      LEFT JOIN LATERAL (
        SELECT jsonb_build_object('method', pc.method, 'note', pc.note, 'by', pc.confirmed_by,
                 'at', payout_desk.iso(pc.confirmed_at), 'runId', pc.run_id, 'version', pc.version,
                 'kinds', to_jsonb(pc.kinds)) AS confirmation
          FROM payout_desk.payee_confirmations pc
         WHERE pc.payee_key = p.payee_key AND pc.account_key = p.account_key
         ORDER BY pc.seq LIMIT 1) c ON cardinality(p.held_for) > 0
     WHERE p.run_id = p_run_id AND p.version = p_version AND jsonb_array_length(p.tripwires) > 0
  )
  SELECT jsonb_build_object(
    'reported', v.payee_checks_reported,
    'counts', jsonb_build_object(
      'account_changed', (SELECT count(*) FROM flagged f WHERE f.tripwires @> '[{"kind": "account_changed"}]'),
      'new_account', (SELECT count(*) FROM flagged f WHERE f.tripwires @> '[{"kind": "new_account"}]'),
      'shared_account', (SELECT count(*) FROM flagged f WHERE f.tripwires @> '[{"kind": "shared_account"}]'),
      'name_drift', (SELECT count(*) FROM flagged f WHERE f.tripwires @> '[{"kind": "name_drift"}]'),
      'unusual_amount', (SELECT count(*) FROM flagged f WHERE f.tripwires @> '[{"kind": "unusual_amount"}]')),
    'flaggedRows', (SELECT count(*) FROM flagged),
    'held', (SELECT count(*) FROM flagged f WHERE cardinality(f.held_for) > 0 AND f.confirmation IS NULL),
    'confirmed', (SELECT count(*) FROM flagged f WHERE f.confirmation IS NOT NULL),
    'rows', coalesce((SELECT jsonb_agg(jsonb_build_object(
        'position', f.position, 'reference', f.reference, 'name', f.customer_name, 'payeeId', f.payee_id,
        'payeeKey', f.payee_key, 'tripwires', f.tripwires,
        'heldFor', to_jsonb(f.held_for), 'held', cardinality(f.held_for) > 0 AND f.confirmation IS NULL,
        'confirmation', f.confirmation) ORDER BY (cardinality(f.held_for) = 0), f.position)
      FROM (SELECT * FROM flagged ORDER BY (cardinality(held_for) = 0), position LIMIT 1000) f), '[]'::jsonb),
    'more', greatest((SELECT count(*) FROM flagged) - 1000, 0))
  FROM payout_desk.run_versions v
  WHERE v.run_id = p_run_id AND v.version = p_version
$$;
