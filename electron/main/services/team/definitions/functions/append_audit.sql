-- Appends one entry in the caller's transaction and tells every listening desk (NOTIFY is sent
-- at commit, so a rolled-back change is never announced).
CREATE OR REPLACE FUNCTION payout_desk.append_audit(kind text, run_id text, subject text, details jsonb, desk_id text)
  RETURNS bigint
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  head record;
  next_seq bigint;
  at_time timestamptz;
  details_text text := coalesce(details, '{}'::jsonb)::text;
  entry_hash text;
BEGIN
  SELECT h.seq, h.hash INTO head FROM payout_desk.audit_head h FOR UPDATE;
  next_seq := head.seq + 1;
  at_time := clock_timestamp();
  entry_hash := payout_desk.audit_hash(next_seq, payout_desk.iso_us(at_time), session_user::text, desk_id, kind,
    run_id, subject, details_text, head.hash);
  INSERT INTO payout_desk.audit_log (seq, at, actor, desk_id, kind, run_id, subject, details, prev_hash, hash)
    VALUES (next_seq, at_time, session_user::text, desk_id, kind, run_id, subject, details_text, head.hash, entry_hash);
  UPDATE payout_desk.audit_head SET seq = next_seq, hash = entry_hash;
  PERFORM pg_notify('payout_desk_events', json_build_object(
    'seq', next_seq, 'kind', kind, 'runId', run_id, 'subject', subject,
    'actor', session_user::text, 'at', payout_desk.iso(at_time))::text);
  RETURN next_seq;
END
$$;
