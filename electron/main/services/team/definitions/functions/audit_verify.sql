-- Checks every link; names the first broken one. Any member may ask.
CREATE OR REPLACE FUNCTION payout_desk.audit_verify() RETURNS jsonb
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  entry record;
  expected bigint := 1;
  prev text := repeat('0', 64);
  head record;
BEGIN
  PERFORM payout_desk.require_role(NULL);
  FOR entry IN SELECT * FROM payout_desk.audit_log ORDER BY seq LOOP
    IF entry.seq <> expected THEN
      RETURN jsonb_build_object('ok', false, 'checked', expected - 1, 'firstBroken', jsonb_build_object(
        'seq', expected, 'reason', format('entry %s is missing (the next one is %s)', expected, entry.seq)));
    END IF;
    IF entry.prev_hash <> prev THEN
      RETURN jsonb_build_object('ok', false, 'checked', expected - 1, 'firstBroken', jsonb_build_object(
        'seq', entry.seq, 'reason', 'its link to the entry before it is broken'));
    END IF;
    IF entry.hash <> payout_desk.audit_hash(entry.seq, payout_desk.iso_us(entry.at), entry.actor, entry.desk_id,
        entry.kind, entry.run_id, entry.subject, entry.details, entry.prev_hash) THEN
      RETURN jsonb_build_object('ok', false, 'checked', expected - 1, 'firstBroken', jsonb_build_object(
        'seq', entry.seq, 'reason', 'its content does not match its hash'));
    END IF;
    prev := entry.hash;
    expected := expected + 1;
  END LOOP;
  SELECT h.seq, h.hash INTO head FROM payout_desk.audit_head h;
  IF head.seq <> expected - 1 OR head.hash <> prev THEN
    RETURN jsonb_build_object('ok', false, 'checked', expected - 1, 'firstBroken', jsonb_build_object(
      'seq', expected, 'reason', format('the trail ends at entry %s but its head is entry %s: entries were removed',
        expected - 1, head.seq)));
  END IF;
  RETURN jsonb_build_object('ok', true, 'checked', expected - 1, 'headHash', prev);
END
$$;
