-- The body of create_run (decision 105): called by it, granted to no one.
-- Creates a run at version 1 (draft). Sent again with the same content by the same member, it
-- answers the run as it is (a desk that lost its connection mid-call may ask again).
CREATE OR REPLACE FUNCTION payout_desk.store_new_run(p_run_id text, p_label text, p_desk text, p_content jsonb, p_hash text)
  RETURNS jsonb
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('preparer', p_desk);
  existing payout_desk.runs;
  stored text;
BEGIN
  IF p_run_id IS NULL OR p_run_id !~ '^[A-Za-z0-9._-]{1,80}$' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A run id is 1 to 80 letters, digits, dots, dashes or underscores.');
  END IF;
  IF p_label IS NULL OR length(btrim(p_label)) NOT BETWEEN 1 AND 200 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A run''s label is 1 to 200 characters.');
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('payout_desk.run:' || p_run_id));
  SELECT * INTO existing FROM payout_desk.runs WHERE run_id = p_run_id FOR UPDATE;
  IF existing.run_id IS NOT NULL THEN
    IF existing.prepared_by = me AND existing.current_version = 1
       AND (SELECT content_hash FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = 1) = p_hash THEN
      RETURN payout_desk.run_view(p_run_id);
    END IF;
    PERFORM payout_desk.fail('PT409', 'run_exists', format('A run %s already exists in this team.', p_run_id));
  END IF;
  INSERT INTO payout_desk.runs (run_id, label, prepared_by, state, current_version)
    VALUES (p_run_id, btrim(p_label), me, 'draft', 1);
  stored := payout_desk.store_version(p_run_id, 1, p_content, me);
  PERFORM payout_desk.check_hash(p_hash, stored, format('Run %s version 1', p_run_id));
  PERFORM payout_desk.append_audit('run_created', p_run_id, NULL, jsonb_build_object(
    'version', 1, 'label', btrim(p_label), 'contentHash', stored,
    'rows', (SELECT row_count FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = 1),
    'total', (SELECT total::text FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = 1),
    'currency', p_content ->> 'currency'), p_desk);
  RETURN payout_desk.run_view(p_run_id);
END
$$;
