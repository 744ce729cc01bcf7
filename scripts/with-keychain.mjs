// Runs a command with a real OS keychain for the secrets code, without touching the user's own keys
// (decision 69):
// - Linux: inside a private D-Bus session with a fresh, unlocked GNOME Keyring in a throwaway folder.
// - macOS and Windows: the OS keychain itself (Keychain, Credential Manager), no wrapper; the keys go
//   under a keychain service of this run's own (PAYOUT_DESK_KEYCHAIN_SERVICE), removed when it ends.
//   node scripts/with-keychain.mjs <command> [args...]
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { explainMissing, missingForKeychain } from './preflight.mjs'

const command = process.argv.slice(2)
if (command.length === 0) {
  console.error('usage: node scripts/with-keychain.mjs <command> [args...]')
  process.exit(2)
}

function run(argv, env, cleanUp = async () => {}) {
  // Windows starts npx, npm and other .cmd files by name only through its shell; a path is started as is.
  const shell = process.platform === 'win32' && !/[\\/]/.test(argv[0])
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env, shell })
  const forward = (signal) => child.kill(signal)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  child.on('exit', (code, signal) => {
    void cleanUp().finally(() => process.exit(code ?? (signal ? 1 : 0)))
  })
}

/** Removes every key the run left under its own keychain service (macOS, Windows). */
async function forgetService(service) {
  try {
    const keytar = createRequire(import.meta.url)('keytar')
    for (const { account } of await keytar.findCredentials(service)) await keytar.deletePassword(service, account)
  } catch (error) {
    console.error(`with-keychain: the keys of ${service} could not be removed: ${error?.message ?? error}`)
  }
}

if (process.env.PAYOUT_DESK_KEYCHAIN === 'ready') {
  run(command, process.env)
} else {
  const missing = missingForKeychain()
  if (missing.length) {
    console.error(explainMissing(missing))
    process.exit(1)
  }
  if (process.platform !== 'linux') {
    const service = `payout-desk-tests-${randomBytes(4).toString('hex')}`
    run(command, { ...process.env, PAYOUT_DESK_KEYCHAIN: 'ready', PAYOUT_DESK_KEYCHAIN_SERVICE: service }, () =>
      forgetService(service),
    )
  } else {
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
}
