-- The text an entry's hash is taken over (shared/team/audit-chain.ts builds the same).
CREATE OR REPLACE FUNCTION payout_desk.audit_hash(
  seq bigint, at_text text, actor text, desk_id text, kind text, run_id text, subject text,
  details text, prev_hash text
) RETURNS text
  LANGUAGE sql IMMUTABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT payout_desk.sha256_hex(concat_ws(E'\n',
    'payout-desk audit v1', seq::text, at_text,
    payout_desk.hash_field(actor), payout_desk.hash_field(coalesce(desk_id, '')),
    payout_desk.hash_field(kind), payout_desk.hash_field(coalesce(run_id, '')),
    payout_desk.hash_field(coalesce(subject, '')), payout_desk.hash_field(details), prev_hash))
$$;
