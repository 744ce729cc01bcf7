// naive-ui's form item imports async-validator (16 kB) for its `rules`, but no form here uses them:
// every field rule is shared/rules, the same code main checks again. The build points the import
// here (electron.vite.config.ts), and a form item constructs a validator only when it has rules,
// so this is never called; if a form ever gets `rules`, it says so instead of validating nothing.
export default class NoFormRules {
  constructor() {
    throw new Error(
      'naive-ui form rules are not used in Payout Desk: check fields with shared/rules (see docs/decisions/).',
    )
  }
}
