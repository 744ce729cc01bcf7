// Runs a command inside a private D-Bus session with a fresh, unlocked GNOME Keyring, so the
// secrets code is tested against a real Secret Service without touching the user's own keyring.
//   node scripts/with-keychain.mjs <command> [args...]
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { explainMissing, missingForTests } from './preflight.mjs'

const command = process.argv.slice(2)
if (command.length === 0) {
  console.error('usage: node scripts/with-keychain.mjs <command> [args...]')
  process.exit(2)
}

function run(argv, env) {
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env })
  const forward = (signal) => child.kill(signal)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

if (process.env.PAYOUT_DESK_KEYCHAIN === 'ready' || process.platform !== 'linux') {
  run(command, process.env)
} else {
  const missing = missingForTests()
  if (missing.length) {
    console.error(explainMissing(missing))
    process.exit(1)
  }
  const dataHome = mkdtempSync(join(tmpdir(), 'payout-desk-keyring-'))
  process.on('exit', () => rmSync(dataHome, { recursive: true, force: true }))
  const script =
    'echo -n payout-desk-tests | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"'
  run(['dbus-run-session', '--', 'sh', '-c', script, 'sh', ...command], {
    ...process.env,
    XDG_DATA_HOME: dataHome,
    PAYOUT_DESK_KEYCHAIN: 'ready',
  })
}
