// `npm run bridge [-- --user-data DIR --port N ...]`: the app in a browser. The real main services
// (electron/main/bridge.ts, from source) behind a loopback address, serving the built renderer
// (decision 67):
// - it builds first when the renderer is not built yet, or older than its sources;
// - it has a keychain, as the installed app does. On Linux that is the session's Secret Service
//   when one answers (a desktop login), else a private GNOME Keyring for this run only
//   (scripts/with-keychain.mjs), said in one line; on macOS and Windows the OS keychain.
import { spawn, spawnSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildNeeded } from './build-state.mjs'
import { explainMissing, missingForKeychain } from './preflight.mjs'
import { nodeVersionProblem } from './start.mjs'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** What the renderer the bridge serves is built from. */
export const RENDERER_SOURCES = ['renderer', 'shared', 'electron.vite.config.ts', 'package-lock.json']

/** Does the session's Secret Service answer keytar (as the app would ask it)? At most 5 s. */
function sessionKeychainAnswers() {
  if (!process.env['DBUS_SESSION_BUS_ADDRESS']) return false
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      "require('keytar').getPassword('payout-desk-probe', 'probe').then(() => process.exit(0), () => process.exit(1))",
    ],
    { cwd: root, stdio: 'ignore', timeout: 5_000 },
  )
  return probe.status === 0
}

/** The command that runs the bridge with a keychain, and the line that says which, if any. */
export function keychainPlan(platform = process.platform, env = process.env) {
  const bridge = [process.execPath, '--import', 'tsx', join(root, 'electron/main/bridge.ts')]
  if (platform !== 'linux' || env['PAYOUT_DESK_KEYCHAIN'] === 'ready' || sessionKeychainAnswers()) {
    return { argv: bridge, note: null }
  }
  const missing = missingForKeychain({ platform })
  if (missing.length > 0) {
    return {
      argv: bridge,
      note: `No keychain answers on this session and none can be started, so Settings cannot save keys. ${explainMissing(missing, platform)}`,
    }
  }
  return {
    argv: [process.execPath, join(root, 'scripts/with-keychain.mjs'), ...bridge],
    note: 'No keychain answers on this session: the bridge uses a private GNOME Keyring for this run; keys saved in Settings are forgotten when it stops.',
  }
}

export function main(args = process.argv.slice(2)) {
  const nodeProblem = nodeVersionProblem()
  if (nodeProblem) {
    console.error(nodeProblem)
    return Promise.resolve(1)
  }
  const reason = buildNeeded(root, 'out/renderer/index.html', RENDERER_SOURCES)
  if (reason) {
    console.log(`Building the app first (${reason}).`)
    const built = spawnSync(
      process.execPath,
      [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    )
    if (built.status !== 0) {
      console.error('The bridge cannot start: the build failed (its errors are above).')
      return Promise.resolve(built.status ?? 1)
    }
  }
  const plan = keychainPlan()
  if (plan.note) console.log(plan.note)
  const child = spawn(plan.argv[0], [...plan.argv.slice(1), ...args], { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  return new Promise((done) => child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0))))
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main()
}
