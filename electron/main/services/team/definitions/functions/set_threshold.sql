-- Sets a currency's threshold, or removes it (NULL): at or above it a run needs two approvers.
CREATE OR REPLACE FUNCTION payout_desk.set_threshold(currency text, amount text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_admin();
BEGIN
  IF currency IS NULL OR currency !~ '^[A-Z]{3}$' THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A currency is three capital letters (NGN, KES).');
  END IF;
  IF amount IS NULL THEN
    DELETE FROM payout_desk.thresholds t WHERE t.currency = set_threshold.currency;
  ELSIF amount !~ '^(0|[1-9][0-9]{0,16})\.[0-9]{2}$' OR amount::numeric <= 0 THEN
    PERFORM payout_desk.fail('PT400', 'invalid_argument', 'A threshold is a positive amount with two decimals, such as 5000000.00.');
  ELSE
    INSERT INTO payout_desk.thresholds (currency, amount, set_by) VALUES (currency, amount::numeric, me)
      ON CONFLICT ON CONSTRAINT thresholds_pkey
      DO UPDATE SET amount = excluded.amount, set_by = excluded.set_by, set_at = now();
  END IF;
  PERFORM payout_desk.append_audit('threshold_set', NULL, currency,
    jsonb_build_object('currency', currency, 'amount', amount), NULL);
  RETURN jsonb_build_object('currency', currency, 'amount', amount);
END
$$;
