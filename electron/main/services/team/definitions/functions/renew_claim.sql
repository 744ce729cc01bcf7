-- Extends the lease of a claim this desk holds (while it sends and verifies). A lease that ran out
-- is not renewed: the claim is anyone's to take over from then on, so its holder must claim it
-- again, refused while another desk holds it (decision 63). A claim whose payouts are all final
-- has nothing left to renew.
CREATE OR REPLACE FUNCTION payout_desk.renew_claim(p_reference text, p_desk text, p_lease_seconds integer)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.acting_member('approver', p_desk);
  existing payout_desk.claims;
BEGIN
  PERFORM payout_desk.lease_of(p_lease_seconds);
  SELECT * INTO existing FROM payout_desk.claims WHERE reference = p_reference FOR UPDATE;
  IF existing.reference IS NULL OR existing.state = 'released' THEN
    PERFORM payout_desk.fail('PT404', 'claim_not_found', format('There is no claim on %s.', coalesce(p_reference, '(none)')));
  END IF;
  IF existing.holder_desk <> p_desk THEN
    PERFORM payout_desk.fail('PT423', 'claim_taken_over', format('%s was taken over by %s on desk %s.', p_reference, existing.holder,
      existing.holder_desk));
  END IF;
  IF existing.state = 'held' AND existing.lease_until <= now() THEN
    PERFORM payout_desk.fail('PT409', 'lease_expired', format(
      'The lease of %s ran out at %s: it is not renewed. Claim it again (refused while another desk holds it).',
      p_reference, payout_desk.iso(existing.lease_until)));
  END IF;
  IF existing.state = 'held' THEN
    UPDATE payout_desk.claims SET lease_until = now() + payout_desk.lease_of(p_lease_seconds)
      WHERE reference = p_reference;
  END IF;
  RETURN payout_desk.claim_answer(p_reference, 'renewed', NULL);
END
$$;
