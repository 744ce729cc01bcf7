-- Second line of defence: nobody rewrites or removes an entry (desk roles have no privilege to
-- try; this stops the owner's own mistakes too, unless it disables the trigger on purpose).
CREATE OR REPLACE FUNCTION payout_desk.refuse_audit_change() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'PT403', DETAIL = 'audit_append_only', MESSAGE = 'The audit trail is append-only: entries are never changed or removed.';
END
$$;
