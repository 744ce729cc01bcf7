-- 002: runs, their versions and rows, approvals and rejections, and the tables of release
-- (claims, their items and holders) whose functions 003 adds.
--
-- A run's content is versioned: every edit makes a new version whose content hash (the same text
-- and SHA-256 as shared/team/run-content.ts) is computed here from the stored rows and must equal
-- the hash the desk computed. An approval binds to one version's hash; an edit after it voids it.

CREATE TABLE payout_desk.runs (
  run_id text PRIMARY KEY CHECK (run_id ~ '^[A-Za-z0-9._-]{1,80}$'),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 200),
  prepared_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  state text NOT NULL CHECK (state IN ('draft', 'awaiting_approval', 'approved', 'rejected', 'releasing', 'completed')),
  current_version integer NOT NULL CHECK (current_version >= 1)
);

CREATE TABLE payout_desk.run_versions (
  run_id text NOT NULL REFERENCES payout_desk.runs (run_id),
  version integer NOT NULL CHECK (version >= 1),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  merchant_bears_cost boolean NOT NULL,
  description text NOT NULL CHECK (length(description) <= 200),
  row_count integer NOT NULL CHECK (row_count >= 1),
  total numeric(21, 2) NOT NULL,
  content_hash text NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  submitted_at timestamptz,
  approved_at timestamptz,
  PRIMARY KEY (run_id, version)
);

CREATE TABLE payout_desk.run_rows (
  run_id text NOT NULL,
  version integer NOT NULL,
  position integer NOT NULL CHECK (position >= 1),
  reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 100),
  amount numeric(17, 2) NOT NULL CHECK (amount > 0),
  bank_code text NOT NULL CHECK (length(bank_code) BETWEEN 1 AND 20),
  account_number text NOT NULL CHECK (length(account_number) BETWEEN 1 AND 40),
  customer_name text NOT NULL CHECK (length(customer_name) <= 200),
  customer_email text NOT NULL CHECK (length(customer_email) <= 200),
  narration text NOT NULL CHECK (length(narration) <= 200),
  PRIMARY KEY (run_id, version, position),
  UNIQUE (run_id, version, reference),
  FOREIGN KEY (run_id, version) REFERENCES payout_desk.run_versions (run_id, version)
);

-- Everyone who prepared or edited a run: none of them may approve or reject it.
CREATE TABLE payout_desk.run_contributors (
  run_id text NOT NULL REFERENCES payout_desk.runs (run_id),
  member text NOT NULL,
  PRIMARY KEY (run_id, member)
);

-- Approvals and rejections, each bound to a version and its content hash.
CREATE TABLE payout_desk.run_decisions (
  run_id text NOT NULL,
  version integer NOT NULL,
  decided_by text NOT NULL,
  decision text NOT NULL CHECK (decision IN ('approved', 'rejected')),
  content_hash text NOT NULL,
  reason text,
  decided_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, version, decided_by),
  FOREIGN KEY (run_id, version) REFERENCES payout_desk.run_versions (run_id, version),
  CHECK ((decision = 'approved' AND reason IS NULL)
      OR (decision = 'rejected' AND length(btrim(reason)) BETWEEN 1 AND 500))
);

-- The last version each member looked at (the Approvals screen shows the changes since).
CREATE TABLE payout_desk.run_seen (
  run_id text NOT NULL REFERENCES payout_desk.runs (run_id),
  member text NOT NULL,
  version integer NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, member)
);

-- A claim on a batch (or a single payout) reference: the desk that holds it, until when.
CREATE TABLE payout_desk.claims (
  reference text PRIMARY KEY CHECK (length(reference) BETWEEN 1 AND 100),
  kind text NOT NULL CHECK (kind IN ('batch', 'payout')),
  run_id text NOT NULL,
  version integer NOT NULL,
  state text NOT NULL CHECK (state IN ('held', 'done', 'released')),
  holder text NOT NULL,
  holder_desk text NOT NULL REFERENCES payout_desk.desks (desk_id),
  claimed_at timestamptz NOT NULL,
  lease_until timestamptz NOT NULL,
  takeovers integer NOT NULL DEFAULT 0,
  FOREIGN KEY (run_id, version) REFERENCES payout_desk.run_versions (run_id, version)
);
CREATE INDEX claims_run ON payout_desk.claims (run_id);

-- Each payout reference is claimed once, team-wide: two claims can never cover the same row.
CREATE TABLE payout_desk.claim_items (
  item_reference text PRIMARY KEY,
  claim_reference text NOT NULL REFERENCES payout_desk.claims (reference),
  run_id text NOT NULL,
  version integer NOT NULL,
  position integer NOT NULL,
  outcome text CHECK (outcome IN ('sent', 'accepted', 'refused', 'unknown', 'paid', 'failed')),
  outcome_at timestamptz,
  first_sent_at timestamptz,
  message text,
  FOREIGN KEY (run_id, version, position) REFERENCES payout_desk.run_rows (run_id, version, position)
);
CREATE INDEX claim_items_claim ON payout_desk.claim_items (claim_reference);

-- Every desk that has held a claim: a past holder may still record what it verified.
CREATE TABLE payout_desk.claim_holders (
  claim_reference text NOT NULL REFERENCES payout_desk.claims (reference),
  holder text NOT NULL,
  holder_desk text NOT NULL,
  held_from timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (claim_reference, holder_desk)
);

-- ---- Content and its hash.

-- The canonical text of a version's content: what shared/team/run-content.ts hashes.
CREATE FUNCTION payout_desk.run_content_text(p_run_id text, p_version integer) RETURNS text
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT 'payout-desk run content v1' || E'\n'
      || 'currency:' || v.currency || E'\n'
      || 'merchant_bears_cost:' || CASE WHEN v.merchant_bears_cost THEN 'true' ELSE 'false' END || E'\n'
      || 'rows:' || (SELECT count(*) FROM payout_desk.run_rows r WHERE r.run_id = v.run_id AND r.version = v.version)::text
      || E'\n'
      || coalesce((
           SELECT string_agg(
                    payout_desk.hash_field(r.reference) || E'\t' || r.amount::text || E'\t'
                    || payout_desk.hash_field(r.bank_code) || E'\t' || payout_desk.hash_field(r.account_number) || E'\t'
                    || payout_desk.hash_field(r.customer_name) || E'\t' || payout_desk.hash_field(r.customer_email) || E'\t'
                    || payout_desk.hash_field(r.narration) || E'\n',
                    '' ORDER BY r.position)
           FROM payout_desk.run_rows r WHERE r.run_id = v.run_id AND r.version = v.version), '')
  FROM payout_desk.run_versions v
  WHERE v.run_id = p_run_id AND v.version = p_version
$$;

-- Two approvers when the total reaches the currency's threshold, or when it has none.
CREATE FUNCTION payout_desk.approvals_required(p_currency text, p_total numeric) RETURNS integer
  LANGUAGE sql STABLE
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
  SELECT CASE WHEN t.amount IS NULL OR p_total >= t.amount THEN 2 ELSE 1 END
  FROM (SELECT (SELECT th.amount FROM payout_desk.thresholds th WHERE th.currency = p_currency) AS amount) t
$$;

-- Stores one version of a run from the desk's content and returns the hash computed here.
CREATE FUNCTION payout_desk.store_version(p_run_id text, p_version integer, p_content jsonb, p_me text)
  RETURNS text
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  v_currency text := p_content ->> 'currency';
  v_bears jsonb := p_content -> 'merchantBearsCost';
  v_description text := coalesce(p_content ->> 'description', '');
  v_rows jsonb := p_content -> 'rows';
  v_bad record;
  v_duplicate text;
  v_hash text;
BEGIN
  IF jsonb_typeof(p_content) IS DISTINCT FROM 'object' THEN
    PERFORM payout_desk.fail('PT400', 'The run content must be an object.');
  END IF;
  IF v_currency IS NULL OR v_currency !~ '^[A-Z]{3}$' THEN
    PERFORM payout_desk.fail('PT400', 'The run''s currency must be three capital letters.');
  END IF;
  IF jsonb_typeof(v_bears) IS DISTINCT FROM 'boolean' THEN
    PERFORM payout_desk.fail('PT400', 'merchantBearsCost must be true or false.');
  END IF;
  IF length(v_description) > 200 THEN
    PERFORM payout_desk.fail('PT400', 'The description is longer than 200 characters.');
  END IF;
  IF jsonb_typeof(v_rows) IS DISTINCT FROM 'array' OR jsonb_array_length(v_rows) NOT BETWEEN 1 AND 100000 THEN
    PERFORM payout_desk.fail('PT400', 'A run has 1 to 100,000 rows.');
  END IF;
  SELECT x.ord, x.problem INTO v_bad FROM (
    SELECT e.ord, CASE
      WHEN jsonb_typeof(e.value) <> 'object' THEN 'is not an object'
      WHEN jsonb_typeof(e.value -> 'reference') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'reference') NOT BETWEEN 1 AND 100 THEN 'reference must be 1 to 100 characters'
      WHEN jsonb_typeof(e.value -> 'amount') IS DISTINCT FROM 'string'
        OR (e.value ->> 'amount') !~ '^(0|[1-9][0-9]{0,14})\.[0-9]{2}$' THEN 'amount must be a plain amount with two decimals, such as 1500.00'
      WHEN (e.value ->> 'amount')::numeric <= 0 THEN 'amount must be more than zero'
      WHEN jsonb_typeof(e.value -> 'bank_code') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'bank_code') NOT BETWEEN 1 AND 20 THEN 'bank_code must be 1 to 20 characters'
      WHEN jsonb_typeof(e.value -> 'account_number') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'account_number') NOT BETWEEN 1 AND 40 THEN 'account_number must be 1 to 40 characters'
      WHEN jsonb_typeof(e.value -> 'customer_name') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'customer_name') > 200 THEN 'customer_name must be text of at most 200 characters'
      WHEN jsonb_typeof(e.value -> 'customer_email') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'customer_email') > 200 THEN 'customer_email must be text of at most 200 characters'
      WHEN jsonb_typeof(e.value -> 'narration') IS DISTINCT FROM 'string'
        OR length(e.value ->> 'narration') > 200 THEN 'narration must be text of at most 200 characters'
    END AS problem
    FROM jsonb_array_elements(v_rows) WITH ORDINALITY AS e(value, ord)
  ) x WHERE x.problem IS NOT NULL ORDER BY x.ord LIMIT 1;
  IF v_bad.ord IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', format('Row %s of the run: %s.', v_bad.ord, v_bad.problem));
  END IF;
  SELECT e.value ->> 'reference' INTO v_duplicate
    FROM jsonb_array_elements(v_rows) AS e(value)
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
  IF v_duplicate IS NOT NULL THEN
    PERFORM payout_desk.fail('PT400', format('The reference %s appears more than once in the run.', v_duplicate));
  END IF;

  INSERT INTO payout_desk.run_versions (run_id, version, currency, merchant_bears_cost, description, row_count,
      total, content_hash, created_by)
    SELECT p_run_id, p_version, v_currency, v_bears::text::boolean, v_description, jsonb_array_length(v_rows),
      (SELECT sum((e.value ->> 'amount')::numeric) FROM jsonb_array_elements(v_rows) AS e(value)),
      repeat('0', 64), p_me;
  INSERT INTO payout_desk.run_rows (run_id, version, position, reference, amount, bank_code, account_number,
      customer_name, customer_email, narration)
    SELECT p_run_id, p_version, e.ord, e.value ->> 'reference', (e.value ->> 'amount')::numeric,
      e.value ->> 'bank_code', e.value ->> 'account_number', e.value ->> 'customer_name',
      e.value ->> 'customer_email', e.value ->> 'narration'
    FROM jsonb_array_elements(v_rows) WITH ORDINALITY AS e(value, ord);
  v_hash := payout_desk.sha256_hex(payout_desk.run_content_text(p_run_id, p_version));
  UPDATE payout_desk.run_versions SET content_hash = v_hash WHERE run_id = p_run_id AND version = p_version;
  INSERT INTO payout_desk.run_contributors (run_id, member) VALUES (p_run_id, p_me) ON CONFLICT DO NOTHING;
  RETURN v_hash;
END
$$;

-- ---- What a desk sees of a run.

-- Security definer so the team_runs view can call it for its reader; it shows nothing to a non-member.
CREATE FUNCTION payout_desk.run_view(p_run_id text) RETURNS jsonb
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
    'approvalsRequired', payout_desk.approvals_required(v.currency, v.total),
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
      WHERE s.run_id = r.run_id AND s.member = session_user::text))
  FROM payout_desk.runs r
  JOIN payout_desk.run_versions v ON v.run_id = r.run_id AND v.version = r.current_version
  WHERE r.run_id = p_run_id AND payout_desk.is_member()
$$;

CREATE FUNCTION payout_desk.lock_run(p_run_id text) RETURNS payout_desk.runs
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  found payout_desk.runs;
BEGIN
  SELECT * INTO found FROM payout_desk.runs WHERE run_id = p_run_id FOR UPDATE;
  IF found.run_id IS NULL THEN
    PERFORM payout_desk.fail('PT404', format('There is no run %s in this team.', coalesce(p_run_id, '(none)')));
  END IF;
  RETURN found;
END
$$;

CREATE FUNCTION payout_desk.check_hash(p_given text, p_stored text, p_what text) RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF p_given IS DISTINCT FROM p_stored THEN
    PERFORM payout_desk.fail('PT412', format('%s: the desk''s content hash %s does not match the team''s %s.',
      p_what, left(coalesce(p_given, '(none)'), 12), left(p_stored, 12)));
  END IF;
END
$$;

-- ---- Preparing: create, revise, submit.

-- Creates a run at version 1 (draft). Sent again with the same content by the same member, it
-- answers the run as it is (a desk that lost its connection mid-call may ask again).
CREATE FUNCTION payout_desk.create_run(p_run_id text, p_label text, p_desk text, p_content jsonb, p_hash text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('preparer');
  existing payout_desk.runs;
  stored text;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  IF p_run_id IS NULL OR p_run_id !~ '^[A-Za-z0-9._-]{1,80}$' THEN
    PERFORM payout_desk.fail('PT400', 'A run id is 1 to 80 letters, digits, dots, dashes or underscores.');
  END IF;
  IF p_label IS NULL OR length(btrim(p_label)) NOT BETWEEN 1 AND 200 THEN
    PERFORM payout_desk.fail('PT400', 'A run''s label is 1 to 200 characters.');
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('payout_desk.run:' || p_run_id));
  SELECT * INTO existing FROM payout_desk.runs WHERE run_id = p_run_id FOR UPDATE;
  IF existing.run_id IS NOT NULL THEN
    IF existing.prepared_by = me AND existing.current_version = 1
       AND (SELECT content_hash FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = 1) = p_hash THEN
      RETURN payout_desk.run_view(p_run_id);
    END IF;
    PERFORM payout_desk.fail('PT409', format('A run %s already exists in this team.', p_run_id));
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

-- A new version of the run. Any approval given to an earlier version is void from now on, and
-- the trail says so (an entry everyone's desk is told of).
CREATE FUNCTION payout_desk.revise_run(p_run_id text, p_base_version integer, p_desk text, p_content jsonb,
    p_hash text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('preparer');
  run payout_desk.runs;
  next_version integer;
  stored text;
  voided jsonb;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  run := payout_desk.lock_run(p_run_id);
  IF run.current_version = p_base_version + 1
     AND (SELECT created_by = me AND content_hash = p_hash FROM payout_desk.run_versions
          WHERE run_id = p_run_id AND version = run.current_version) THEN
    RETURN payout_desk.run_view(p_run_id); -- the same revision asked again
  END IF;
  IF run.state IN ('releasing', 'completed') THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s: it can no longer be changed.', p_run_id,
      CASE run.state WHEN 'releasing' THEN 'being released' ELSE 'completed' END));
  END IF;
  IF run.current_version <> p_base_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s changed meanwhile: version %s is current, not %s.',
      p_run_id, run.current_version, p_base_version));
  END IF;
  next_version := run.current_version + 1;
  stored := payout_desk.store_version(p_run_id, next_version, p_content, me);
  PERFORM payout_desk.check_hash(p_hash, stored, format('Run %s version %s', p_run_id, next_version));
  SELECT jsonb_agg(d.decided_by ORDER BY d.decided_at) INTO voided FROM payout_desk.run_decisions d
    WHERE d.run_id = p_run_id AND d.version = run.current_version AND d.decision = 'approved';
  UPDATE payout_desk.runs SET current_version = next_version, state = 'draft', updated_at = now()
    WHERE run_id = p_run_id;
  PERFORM payout_desk.append_audit('run_revised', p_run_id, NULL, jsonb_build_object(
    'version', next_version, 'previousVersion', run.current_version, 'contentHash', stored,
    'previousState', run.state), p_desk);
  IF voided IS NOT NULL THEN
    PERFORM payout_desk.append_audit('approval_voided', p_run_id, NULL, jsonb_build_object(
      'version', run.current_version, 'approvedBy', voided, 'wasApproved', run.state = 'approved',
      'becauseOfVersion', next_version,
      'message', format('The approval of version %s is void: %s changed the run (version %s).',
        run.current_version, me, next_version)), p_desk);
  END IF;
  RETURN payout_desk.run_view(p_run_id);
END
$$;

CREATE FUNCTION payout_desk.submit_run(p_run_id text, p_version integer, p_hash text, p_desk text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('preparer');
  run payout_desk.runs;
  version_row payout_desk.run_versions;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  run := payout_desk.lock_run(p_run_id);
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s changed meanwhile: version %s is current, not %s.',
      p_run_id, run.current_version, p_version));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash, format('Run %s version %s', p_run_id, p_version));
  IF run.state = 'awaiting_approval' THEN
    RETURN payout_desk.run_view(p_run_id);
  END IF;
  IF run.state <> 'draft' THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s; only a draft is submitted for approval%s.', p_run_id,
      replace(run.state, '_', ' '),
      CASE WHEN run.state = 'rejected' THEN ' (change it first: that makes a new version)' ELSE '' END));
  END IF;
  UPDATE payout_desk.runs SET state = 'awaiting_approval', updated_at = now() WHERE run_id = p_run_id;
  UPDATE payout_desk.run_versions SET submitted_at = now() WHERE run_id = p_run_id AND version = p_version;
  PERFORM payout_desk.append_audit('run_submitted', p_run_id, NULL, jsonb_build_object(
    'version', p_version, 'contentHash', version_row.content_hash, 'total', version_row.total::text,
    'currency', version_row.currency, 'rows', version_row.row_count,
    'approvalsRequired', payout_desk.approvals_required(version_row.currency, version_row.total)), p_desk);
  RETURN payout_desk.run_view(p_run_id);
END
$$;

-- ---- Approving and rejecting.

CREATE FUNCTION payout_desk.require_checker(p_run_id text, p_me text, p_what text) RETURNS void
  LANGUAGE plpgsql
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM payout_desk.run_contributors WHERE run_id = p_run_id AND member = p_me) THEN
    PERFORM payout_desk.fail('PT403', format('%s prepared or edited run %s, so cannot %s it: another approver must.',
      p_me, p_run_id, p_what));
  END IF;
END
$$;

-- Approves the version whose hash the approver reviewed, having typed its total. The run is
-- approved once it has as many different approvers as its total requires.
CREATE FUNCTION payout_desk.approve_run(p_run_id text, p_version integer, p_hash text, p_typed_total text,
    p_desk text)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  run payout_desk.runs;
  version_row payout_desk.run_versions;
  required integer;
  given integer;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  run := payout_desk.lock_run(p_run_id);
  PERFORM payout_desk.require_checker(p_run_id, me, 'approve');
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s changed: version %s is current, not the version %s you reviewed.',
      p_run_id, run.current_version, p_version));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  PERFORM payout_desk.check_hash(p_hash, version_row.content_hash, format('Run %s version %s', p_run_id, p_version));
  IF EXISTS (SELECT 1 FROM payout_desk.run_decisions WHERE run_id = p_run_id AND version = p_version
             AND decided_by = me AND decision = 'approved') THEN
    RETURN payout_desk.run_view(p_run_id); -- approved already by this approver
  END IF;
  IF run.state <> 'awaiting_approval' THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s, not awaiting approval.', p_run_id, replace(run.state, '_', ' ')));
  END IF;
  IF p_typed_total IS NULL OR p_typed_total !~ '^[0-9]{1,19}(\.[0-9]{1,2})?$'
     OR p_typed_total::numeric <> version_row.total THEN
    PERFORM payout_desk.fail('PT400', format('The total typed (%s) is not the run''s total.', coalesce(p_typed_total, 'nothing')));
  END IF;
  INSERT INTO payout_desk.run_decisions (run_id, version, decided_by, decision, content_hash)
    VALUES (p_run_id, p_version, me, 'approved', version_row.content_hash);
  required := payout_desk.approvals_required(version_row.currency, version_row.total);
  SELECT count(*) INTO given FROM payout_desk.run_decisions
    WHERE run_id = p_run_id AND version = p_version AND decision = 'approved';
  PERFORM payout_desk.append_audit('approval_given', p_run_id, NULL, jsonb_build_object(
    'version', p_version, 'contentHash', version_row.content_hash, 'given', given, 'required', required), p_desk);
  IF given >= required THEN
    UPDATE payout_desk.runs SET state = 'approved', updated_at = now() WHERE run_id = p_run_id;
    UPDATE payout_desk.run_versions SET approved_at = now() WHERE run_id = p_run_id AND version = p_version;
    PERFORM payout_desk.append_audit('run_approved', p_run_id, NULL, jsonb_build_object(
      'version', p_version, 'contentHash', version_row.content_hash,
      'approvedBy', (SELECT jsonb_agg(d.decided_by ORDER BY d.decided_at) FROM payout_desk.run_decisions d
        WHERE d.run_id = p_run_id AND d.version = p_version AND d.decision = 'approved')), p_desk);
  ELSE
    UPDATE payout_desk.runs SET updated_at = now() WHERE run_id = p_run_id;
  END IF;
  RETURN payout_desk.run_view(p_run_id);
END
$$;

CREATE FUNCTION payout_desk.reject_run(p_run_id text, p_version integer, p_reason text, p_desk text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role('approver');
  run payout_desk.runs;
  version_row payout_desk.run_versions;
BEGIN
  PERFORM payout_desk.require_desk(p_desk);
  run := payout_desk.lock_run(p_run_id);
  PERFORM payout_desk.require_checker(p_run_id, me, 'reject');
  IF p_reason IS NULL OR length(btrim(p_reason)) NOT BETWEEN 1 AND 500 THEN
    PERFORM payout_desk.fail('PT400', 'A rejection needs a reason of 1 to 500 characters.');
  END IF;
  IF run.current_version <> p_version THEN
    PERFORM payout_desk.fail('PT409', format('Run %s changed: version %s is current, not the version %s you reviewed.',
      p_run_id, run.current_version, p_version));
  END IF;
  IF run.state <> 'awaiting_approval' THEN
    PERFORM payout_desk.fail('PT409', format('Run %s is %s, not awaiting approval.', p_run_id, replace(run.state, '_', ' ')));
  END IF;
  SELECT * INTO version_row FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version;
  INSERT INTO payout_desk.run_decisions (run_id, version, decided_by, decision, content_hash, reason)
    VALUES (p_run_id, p_version, me, 'rejected', version_row.content_hash, btrim(p_reason))
    ON CONFLICT (run_id, version, decided_by) DO UPDATE
      SET decision = 'rejected', reason = excluded.reason, decided_at = now();
  UPDATE payout_desk.runs SET state = 'rejected', updated_at = now() WHERE run_id = p_run_id;
  PERFORM payout_desk.append_audit('run_rejected', p_run_id, NULL, jsonb_build_object(
    'version', p_version, 'reason', btrim(p_reason)), p_desk);
  RETURN payout_desk.run_view(p_run_id);
END
$$;

CREATE FUNCTION payout_desk.mark_run_seen(p_run_id text, p_version integer) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
DECLARE
  me text := payout_desk.require_role(NULL);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM payout_desk.run_versions WHERE run_id = p_run_id AND version = p_version) THEN
    PERFORM payout_desk.fail('PT404', format('Run %s has no version %s.', p_run_id, p_version));
  END IF;
  INSERT INTO payout_desk.run_seen (run_id, member, version) VALUES (p_run_id, me, p_version)
    ON CONFLICT (run_id, member) DO UPDATE SET version = greatest(run_seen.version, excluded.version), seen_at = now();
END
$$;

-- ---- Reads.

CREATE VIEW payout_desk.team_runs WITH (security_barrier) AS
  SELECT r.run_id, payout_desk.run_view(r.run_id) AS run
  FROM payout_desk.runs r
  WHERE payout_desk.is_member();

CREATE VIEW payout_desk.team_run_rows WITH (security_barrier) AS
  SELECT r.run_id, r.version, r.position, r.reference, r.amount::text AS amount, r.bank_code, r.account_number,
         r.customer_name, r.customer_email, r.narration
  FROM payout_desk.run_rows r
  WHERE payout_desk.is_member();

CREATE VIEW payout_desk.team_run_decisions WITH (security_barrier) AS
  SELECT d.run_id, d.version, d.decided_by, d.decision, d.content_hash, d.reason, payout_desk.iso(d.decided_at) AS decided_at
  FROM payout_desk.run_decisions d
  WHERE payout_desk.is_member();

CREATE VIEW payout_desk.team_run_versions WITH (security_barrier) AS
  SELECT v.run_id, v.version, v.currency, v.merchant_bears_cost, v.description, v.row_count, v.total::text AS total,
         v.content_hash, v.created_by, payout_desk.iso(v.created_at) AS created_at
  FROM payout_desk.run_versions v
  WHERE payout_desk.is_member();

-- The team's content text of a version, for a desk to prove its hash agrees.
CREATE FUNCTION payout_desk.run_content(p_run_id text, p_version integer) RETURNS text
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, payout_desk, pg_temp
AS $$
BEGIN
  PERFORM payout_desk.require_role(NULL);
  RETURN payout_desk.run_content_text(p_run_id, p_version);
END
$$;

GRANT SELECT ON payout_desk.team_runs, payout_desk.team_run_rows, payout_desk.team_run_decisions,
  payout_desk.team_run_versions
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
GRANT EXECUTE ON FUNCTION payout_desk.run_view(text), payout_desk.mark_run_seen(text, integer),
  payout_desk.run_content(text, integer)
  TO payout_desk_preparer, payout_desk_approver, payout_desk_admin;
GRANT EXECUTE ON FUNCTION payout_desk.create_run(text, text, text, jsonb, text),
  payout_desk.revise_run(text, integer, text, jsonb, text), payout_desk.submit_run(text, integer, text, text)
  TO payout_desk_preparer;
GRANT EXECUTE ON FUNCTION payout_desk.approve_run(text, integer, text, text, text),
  payout_desk.reject_run(text, integer, text, text)
  TO payout_desk_approver;
