// Checks that this machine has what the test suite needs, and says in one line what to install
// when it does not, instead of letting a test fail obscurely later.
import { existsSync } from 'node:fs'
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
