// Checks that this machine has what `npm test` needs, on Linux, macOS or Windows, and says in one
// line what is missing and how to install it there, instead of letting a test fail obscurely later
// (decision 69). `node scripts/preflight.mjs` prints the verdict; scripts/test-all.mjs and
// scripts/with-keychain.mjs run the same checks first.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MINIMUM_POSTGRES, findChromium, findPostgres, onPath } from './test-tools.cjs'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** What the checks ask of the machine; tests give a machine of their own. */
export function systemProbe({ env = process.env, platform = process.platform } = {}) {
  return {
    command: (name) => onPath(name, { env, platform }) !== null,
    libsecret() {
      try {
        execFileSync(
          'sh',
          ['-c', 'ldconfig -p 2>/dev/null | grep -q libsecret-1.so.0 || /sbin/ldconfig -p | grep -q libsecret-1.so.0'],
          {
            stdio: 'ignore',
          },
        )
        return true
      } catch {
        return false
      }
    },
    chromium: () => findChromium({ env, platform }),
    postgres: () => findPostgres({ env, platform }),
    keytarBuilt: () => existsSync(join(root, 'node_modules/keytar/build/Release/keytar.node')),
  }
}

/**
 * How each missing thing is installed, by OS: Debian's apt (the platform the project's CI runs
 * on), Homebrew on macOS, Scoop on Windows (its shims put the tools on PATH).
 */
const INSTALL = {
  chromium: { command: 'npx playwright install chromium', apt: 'chromium-headless-shell' },
  libsecret: { apt: 'libsecret-1-dev', rebuildsKeytar: true },
  pkgConfig: { apt: 'pkg-config', rebuildsKeytar: true },
  gnomeKeyring: { apt: 'gnome-keyring' },
  dbus: { apt: 'dbus' },
  poppler: { apt: 'poppler-utils', brew: 'poppler', scoop: 'poppler' },
  postgres: { apt: 'postgresql', brew: 'postgresql@17', scoop: 'postgresql' },
  openssl: { apt: 'openssl', brew: 'openssl@3', scoop: 'openssl' },
  keytar: { rebuildsKeytar: true },
}

const KEYTAR = { what: 'the keytar native module (built by npm ci)', ...INSTALL.keytar }

/** A Secret Service the tests can start on Linux: a private GNOME Keyring on a private D-Bus. */
function secretServiceMissing(platform, probe) {
  if (platform !== 'linux') return []
  const missing = []
  if (!probe.libsecret()) missing.push({ what: 'libsecret', ...INSTALL.libsecret })
  if (!probe.command('gnome-keyring-daemon'))
    missing.push({ what: 'a Secret Service (gnome-keyring)', ...INSTALL.gnomeKeyring })
  if (!probe.command('dbus-run-session')) missing.push({ what: 'dbus-run-session', ...INSTALL.dbus })
  return missing
}

/** What scripts/with-keychain.mjs needs: keytar, and on Linux the Secret Service it starts. */
export function missingForKeychain({ platform = process.platform, probe = systemProbe({ platform }) } = {}) {
  return [...secretServiceMissing(platform, probe), ...(probe.keytarBuilt() ? [] : [KEYTAR])]
}

/** Everything `npm test` needs on this OS. */
export function missingForTests({ platform = process.platform, env = process.env, probe } = {}) {
  const machine = probe ?? systemProbe({ env, platform })
  const missing = []
  if (!machine.chromium()) {
    const given = env['PAYOUT_DESK_CHROMIUM']
    const what = given
      ? `Chromium (PAYOUT_DESK_CHROMIUM=${given} does not exist)`
      : platform === 'linux'
        ? "Chromium (Debian's chromium-headless-shell or chromium package, or Playwright's own: npx playwright install chromium)"
        : "Chromium (Playwright's own)"
    missing.push({ what, ...INSTALL.chromium })
  }
  if (platform === 'linux' && !machine.command('pkg-config')) missing.push({ what: 'pkg-config', ...INSTALL.pkgConfig })
  missing.push(...secretServiceMissing(platform, machine))
  // The PDF tests read documents back as a person would: their text and their pages as images.
  if (!['pdftotext', 'pdftoppm', 'pdfinfo'].every((tool) => machine.command(tool)))
    missing.push({ what: 'poppler-utils (pdftotext, pdftoppm, pdfinfo)', ...INSTALL.poppler })
  if (!machine.postgres()) {
    const given = env['PAYOUT_DESK_PG_BIN']
    missing.push({
      what: given
        ? `PostgreSQL ${MINIMUM_POSTGRES} or later (PAYOUT_DESK_PG_BIN=${given} has no initdb and pg_ctl of ${MINIMUM_POSTGRES} or later)`
        : `PostgreSQL ${MINIMUM_POSTGRES} or later (initdb and pg_ctl on PATH, or in PAYOUT_DESK_PG_BIN)`,
      ...INSTALL.postgres,
    })
  }
  if (!machine.command('openssl')) missing.push({ what: 'openssl', ...INSTALL.openssl })
  if (!machine.keytarBuilt()) missing.push(KEYTAR)
  return missing
}

/** One line: what is missing, then the commands that install it on this OS. */
export function explainMissing(missing, platform = process.platform) {
  const what = missing.map((item) => item.what).join(', ')
  const manager = platform === 'linux' ? 'apt' : platform === 'darwin' ? 'brew' : 'scoop'
  const packages = [...new Set(missing.map((item) => item[manager]).filter(Boolean))]
  const commands = []
  if (packages.length > 0) {
    commands.push(
      manager === 'apt'
        ? `sudo apt-get install -y ${packages.join(' ')}`
        : manager === 'brew'
          ? `brew install ${packages.join(' ')}`
          : `scoop install ${packages.join(' ')}`,
    )
  }
  // Debian's chromium-headless-shell package is the Linux answer; elsewhere Playwright downloads its own.
  for (const item of missing) {
    if (item.command && !(manager === 'apt' && item.apt) && !commands.includes(item.command))
      commands.push(item.command)
  }
  if (missing.some((item) => item.rebuildsKeytar)) commands.push('npm ci')
  return `Missing: ${what}. Install with: ${commands.join(' && ')}`
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const missing = missingForTests()
  if (missing.length) {
    console.error(explainMissing(missing))
    process.exit(1)
  }
  console.log('preflight: everything the tests need is installed')
}
