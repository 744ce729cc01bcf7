-- 009: a refusal of the team database says why in a machine-readable reason (decision 86).
-- payout_desk.fail(code, message) becomes fail(code, reason, message): the SQLSTATE of class PT
-- keeps its meaning (PT409 a conflict, ...) and the reason, the error's DETAIL, names which one,
-- so a desk acts on it without reading the text. A signature change is a migration: the old
-- function is dropped here; the new one is definitions/functions/fail.sql.
DROP FUNCTION IF EXISTS payout_desk.fail(text, text);
