// Checks that this machine has what the test suite needs, and says in one line what to install
// when it does not, instead of letting a test fail obscurely later.
import { existsSync, readdirSync } from 'node:fs'
import { execFileSync } from 'node:child_process'

function hasCommand(name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function hasLibsecret() {
  try {
    execFileSync('sh', ['-c', 'ldconfig -p | grep -q libsecret-1.so.0'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** PostgreSQL 15 or later (Debian's layout, or PAYOUT_DESK_PG_BIN), for the team tests' real server. */
function hasPostgres() {
  const given = process.env.PAYOUT_DESK_PG_BIN
  if (given) return existsSync(`${given}/initdb`)
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return false
  return readdirSync(root).some((version) => Number(version) >= 15 && existsSync(`${root}/${version}/bin/initdb`))
}

export function missingForTests() {
  const missing = []
  if (process.platform !== 'linux') return missing
  const chromium = process.env.PAYOUT_DESK_CHROMIUM ?? '/usr/bin/chromium'
  if (!existsSync(chromium)) missing.push({ what: `Chromium (${chromium})`, apt: 'chromium' })
  if (!hasLibsecret()) missing.push({ what: 'libsecret', apt: 'libsecret-1-dev' })
  if (!hasCommand('pkg-config')) missing.push({ what: 'pkg-config', apt: 'pkg-config' })
  if (!hasCommand('gnome-keyring-daemon'))
    missing.push({ what: 'a Secret Service (gnome-keyring)', apt: 'gnome-keyring' })
  if (!hasCommand('dbus-run-session')) missing.push({ what: 'dbus-run-session', apt: 'dbus' })
  // The PDF tests read documents back as a person would: their text and their pages as images.
  if (!hasCommand('pdftotext') || !hasCommand('pdftoppm') || !hasCommand('pdfinfo'))
    missing.push({ what: 'poppler-utils (pdftotext, pdftoppm, pdfinfo)', apt: 'poppler-utils' })
  if (!hasPostgres()) missing.push({ what: 'PostgreSQL 15 or later (initdb, pg_ctl)', apt: 'postgresql' })
  if (!hasCommand('openssl')) missing.push({ what: 'openssl', apt: 'openssl' })
  if (!existsSync('node_modules/keytar/build/Release/keytar.node')) {
    missing.push({ what: 'the keytar native module (run npm ci after installing libsecret-1-dev)', apt: null })
  }
  return missing
}

export function explainMissing(missing) {
  const packages = [...new Set(missing.map((item) => item.apt).filter(Boolean))]
  const what = missing.map((item) => item.what).join(', ')
  return `Missing: ${what}. Install with: sudo apt-get install -y ${packages.join(' ') || '(none)'} && npm ci`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const missing = missingForTests()
  if (missing.length) {
    console.error(explainMissing(missing))
    process.exit(1)
  }
  console.log('preflight: everything the tests need is installed')
}
