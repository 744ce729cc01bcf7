/**
 * Command-line switches the installed app never needs and an attacker with local access could use
 * to drive it: a debugging port or pipe (anyone who reaches it runs code in the app's pages, with
 * the user's keys one IPC call away), the Node inspector, and V8 flags. Electron's fuses turn off
 * `--inspect` and NODE_OPTIONS for main (electron-builder.yml) but have no fuse for Chromium's
 * remote debugging, so the packaged app checks its own command line at start-up and quits.
 * `npm start` and `npm run dev` (not packaged) keep them for developers.
 */

const REFUSED = [/^--remote-debugging-port(=|$)/, /^--remote-debugging-pipe(=|$)/, /^--inspect/, /^--js-flags(=|$)/]

/** The refused switches on a command line, as written (`--inspect-brk=9229`), each once. */
export function refusedSwitches(argv: readonly string[]): string[] {
  // Chromium also reads `-remote-debugging-port` with one dash; Node's switches take two.
  const found = argv.filter((arg) => REFUSED.some((pattern) => pattern.test(arg.replace(/^-(?=[a-z])/, '--'))))
  return [...new Set(found)]
}

/** The one line a refused start says, naming the switches (never their values' secrets: none). */
export function refusedSwitchesMessage(found: readonly string[]): string {
  const names = found.map((arg) => arg.split('=')[0])
  return `Payout Desk does not start with ${[...new Set(names)].join(', ')}: the installed app never allows debugging switches. Start it without them.`
}
