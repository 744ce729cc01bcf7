/**
 * What the installed package contains and how it behaves, read the way electron-builder reads
 * it (its own config loader and file matchers) against the built bundles. No installer can be
 * made here (no Electron binary can be fetched), so this is as close as the package gets:
 * - main's bundles require only Node built-ins, electron and production dependencies;
 * - keytar's native module is unpacked from the asar archive (a .node file cannot load from it);
 * - the payout templates land in extraResources where the app looks for them;
 * - the preload is one file that requires nothing but electron (it runs sandboxed);
 * - the renderer loads nothing from a remote URL;
 * - each fuse is set as intended, and what the app does relies on it (explained below).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { builtinModules } from 'node:module'
import { dirname, extname, join, relative, resolve } from 'node:path'
import { getFileMatchers } from 'app-builder-lib/out/fileMatcher'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import type { Configuration } from 'app-builder-lib'
import { DebugLogger } from 'builder-util'
import { minimatch } from 'minimatch'
import { beforeAll, describe, expect, it } from 'vitest'
import { templatePath } from '../../../electron/main/services/bulk/import/templates'

const root = join(__dirname, '../../..')
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}
let config: Configuration

beforeAll(async () => {
  expect(existsSync(join(root, 'out/main/index.js')), 'run `npm run build` before the unit tests').toBe(true)
  config = await getConfig(root, null, null)
})

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

/** Does electron-builder's matcher for `name` (files, asarUnpack, extraResources) take this file? */
function matched(name: 'files' | 'asarUnpack' | 'extraResources', file: string, destination = root): boolean {
  const matchers = getFileMatchers(config, name, destination, {
    macroExpander: (pattern: string) => pattern,
    customBuildOptions: {},
    globalOutDir: join(root, 'dist'),
    defaultSrc: root,
  } as Parameters<typeof getFileMatchers>[3])
  return (matchers ?? []).some((matcher) => {
    if (!resolve(file).startsWith(matcher.from)) return false
    return matcher.createFilter()(resolve(file), statSync(file))
  })
}

/** Every module a CommonJS bundle loads: require("x") and import("x"). */
function requiresOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/\b(?:require|import)\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]!)
}

const packageName = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!

describe('electron-builder configuration', () => {
  it('is valid for electron-builder, for installers on Windows, macOS and Linux', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
    const targets = (list: unknown) => JSON.stringify(list)
    expect(targets(config.win?.target)).toContain('nsis')
    expect(targets(config.mac?.target)).toContain('dmg')
    expect(targets(config.linux?.target)).toMatch(/AppImage[\s\S]*deb|deb[\s\S]*AppImage/)
  })

  it('fetches updates over https only, with the zip macOS updates install from', () => {
    const publish = [config.publish].flat() as Array<{ url?: string }>
    expect(publish.length).toBeGreaterThan(0)
    for (const target of publish) expect(new URL(target.url ?? '').protocol).toBe('https:')
    expect(JSON.stringify(config.mac?.target)).toContain('zip')
    expect(Object.keys(packageJson.dependencies)).toContain('electron-updater')
  })

  it('signs releases and lets the updater install only what its publisher signed: Windows publisher, macOS notarisation', () => {
    const win = config.win as { signtoolOptions?: { publisherName?: string[] }; verifyUpdateCodeSignature?: boolean }
    expect(win.signtoolOptions?.publisherName?.length).toBeGreaterThan(0)
    expect(win.verifyUpdateCodeSignature).not.toBe(false)
    const mac = config.mac as { notarize?: unknown; hardenedRuntime?: boolean }
    expect(mac.notarize).toBe(true)
    expect(mac.hardenedRuntime).toBe(true)
  })
})

describe('what the package contains', () => {
  it('carries the built app (main, preload, renderer, the import and PDF workers), never sources, tests or source maps', () => {
    for (const file of [
      'out/main/index.js',
      'out/main/bulk-import-worker.js',
      'out/main/pdf-worker.js',
      'out/main/file-reader-worker.js',
      'out/preload/index.js',
      'out/renderer/index.html',
    ]) {
      expect(matched('files', join(root, file)), file).toBe(true)
    }
    for (const file of ['electron/main/index.ts', 'tests/unit/packaging/packaging.test.ts', 'renderer/index.html']) {
      expect(matched('files', join(root, file)), file).toBe(false)
    }
    const maps = filesUnder(join(root, 'out')).filter((file) => file.endsWith('.map'))
    for (const map of maps) expect(matched('files', map), map).toBe(false)
  })

  it("main's bundles require only Node built-ins, electron, their own chunks and production dependencies", () => {
    const production = new Set(Object.keys(packageJson.dependencies))
    const builtins = new Set(builtinModules)
    const problems: string[] = []
    for (const bundle of filesUnder(join(root, 'out/main')).filter((file) => file.endsWith('.js'))) {
      for (const specifier of requiresOf(bundle)) {
        if (specifier.startsWith('.')) {
          if (!existsSync(resolve(dirname(bundle), specifier))) problems.push(`${specifier}: missing chunk`)
        } else if (specifier.startsWith('node:') || builtins.has(specifier) || specifier === 'electron') {
          continue
        } else if (!production.has(packageName(specifier))) {
          problems.push(`${relative(root, bundle)} requires ${specifier}, which is not a production dependency`)
        }
      }
    }
    expect(problems).toEqual([])
    // The bundle does load the packages the installed app needs at run time.
    const loaded = new Set(filesUnder(join(root, 'out/main')).flatMap(requiresOf).map(packageName))
    for (const needed of ['keytar', 'electron-updater', 'electron-log', 'xlsx']) expect(loaded).toContain(needed)
  })

  it('ships the two font faces the PDF documents embed, and leaves the package’s others out', () => {
    // electron-builder applies the `files` exclusions to node_modules too, with minimatch; it hands
    // `files` back as { filter: [...] } entries.
    const excluded = [config.files]
      .flat()
      .flatMap((entry) =>
        typeof entry === 'string' ? [entry] : [(entry as { filter?: string[] } | null)?.filter ?? []].flat(),
      )
      .filter((pattern) => pattern.startsWith('!'))
      .map((pattern) => pattern.slice(1))
    const shipped = (file: string) => !excluded.some((pattern) => minimatch(file, pattern))
    const fonts = readdirSync(join(root, 'node_modules/dejavu-fonts-ttf/ttf'))
    const kept = fonts.filter((font) => shipped(`node_modules/dejavu-fonts-ttf/ttf/${font}`))
    expect(kept.sort()).toEqual(['DejaVuSans-Bold.ttf', 'DejaVuSans.ttf'])
    expect(readFileSync(join(root, 'electron/main/services/documents/pdf-document.ts'), 'utf8')).toMatch(
      /ttf\/DejaVuSans\.ttf'[\s\S]*ttf\/DejaVuSans-Bold\.ttf'/,
    )
  })

  it("unpacks keytar's native module from the asar archive, where it can be loaded", () => {
    expect(Object.keys(packageJson.dependencies)).toContain('keytar')
    const native = filesUnder(join(root, 'node_modules/keytar')).filter((file) => extname(file) === '.node')
    expect(native.length, 'keytar is built by npm ci').toBeGreaterThan(0)
    for (const file of native) expect(matched('asarUnpack', file), relative(root, file)).toBe(true)
    // Nothing else of the app is unpacked (the app itself stays in the integrity-checked archive).
    expect(matched('asarUnpack', join(root, 'out/main/index.js'))).toBe(false)
    expect(config.asar).not.toBe(false)
  })

  it('puts the payout templates in extraResources, where the packaged app finds them', async () => {
    // Lay out Resources/ as electron-builder would: every file its extraResources matchers take.
    const resourcesPath = await mkdtemp(join(tmpdir(), 'payout-desk-resources-'))
    try {
      const matchers = getFileMatchers(config, 'extraResources', resourcesPath, {
        macroExpander: (pattern: string) => pattern,
        customBuildOptions: {},
        globalOutDir: join(root, 'dist'),
        defaultSrc: root,
      } as Parameters<typeof getFileMatchers>[3])!
      for (const matcher of matchers) {
        const take = matcher.createFilter()
        for (const file of filesUnder(matcher.from).filter((file) => take(file, statSync(file)))) {
          const target = join(matcher.to, relative(matcher.from, file))
          await mkdir(dirname(target), { recursive: true })
          await copyFile(file, target)
        }
      }
      const saved = (process as { resourcesPath?: string }).resourcesPath
      ;(process as { resourcesPath?: string }).resourcesPath = resourcesPath
      try {
        for (const kind of ['xlsx', 'csv'] as const) {
          // The packaged app's Download template reads the copy, not the repository's file.
          const found = templatePath(kind)
          expect(found.startsWith(resourcesPath), found).toBe(true)
          expect(readFileSync(found)).toEqual(
            readFileSync(join(root, 'resources/templates', `payouts-template.${kind}`)),
          )
        }
      } finally {
        ;(process as { resourcesPath?: string }).resourcesPath = saved
      }
    } finally {
      await rm(resourcesPath, { recursive: true, force: true })
    }
  })

  it('has one preload file that requires nothing but electron and is CommonJS (a sandboxed preload can load nothing else)', () => {
    const preloads = filesUnder(join(root, 'out/preload')).filter((file) => !file.endsWith('.map'))
    expect(preloads.map((file) => relative(root, file))).toEqual(['out/preload/index.js'])
    expect([...new Set(requiresOf(preloads[0]!))]).toEqual(['electron'])
    expect(readFileSync(preloads[0]!, 'utf8')).not.toMatch(/^\s*(import|export)\s/m)
  })

  it('loads nothing from a remote URL in the renderer: page, styles and scripts refer only to their own files', () => {
    const html = readFileSync(join(root, 'out/renderer/index.html'), 'utf8')
    const references = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/g)].map((match) => match[1]!)
    expect(references.length).toBeGreaterThan(0)
    for (const reference of references) expect(reference, reference).toMatch(/^(\.?\/)?[^:/][^:]*$/)
    const problems: string[] = []
    for (const file of filesUnder(join(root, 'out/renderer'))) {
      const text = readFileSync(file, 'utf8')
      if (file.endsWith('.css')) {
        for (const [, url] of text.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) {
          if (/^[a-z][a-z0-9+.-]*:/i.test(url!) && !url!.startsWith('data:')) problems.push(`${file}: url(${url})`)
        }
        if (/@import\s+(url\()?["']?(https?:)?\/\//.test(text)) problems.push(`${file}: @import of a remote sheet`)
      }
      if (file.endsWith('.js')) {
        for (const [, specifier] of text.matchAll(/\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)|\bfrom\s*["']([^"']+)["']/g)) {
          if (specifier && /^(https?:)?\/\//.test(specifier)) problems.push(`${file}: imports ${specifier}`)
        }
      }
    }
    expect(problems).toEqual([])
  })
})

/**
 * The fuses, flipped in the Electron binary when packaging, and what each means for this app. The
 * test fails for a fuse set otherwise, and for a fuse added without saying why here.
 */
const FUSES: Record<string, { value: boolean; because: string; holds: () => void }> = {
  runAsNode: {
    value: false,
    because: 'ELECTRON_RUN_AS_NODE cannot turn the signed binary into a plain Node.js that runs any script',
    // The app never needs it: its workers are worker threads, and the only child processes it
    // starts are the platform's clipboard helpers (PowerShell, osascript) by their fixed paths
    // (decision 114), never its own executable.
    holds: () => {
      const bundles = filesUnder(join(root, 'out/main')).filter((file) => file.endsWith('.js'))
      for (const bundle of bundles) {
        const text = readFileSync(bundle, 'utf8')
        expect(text, bundle).not.toContain('ELECTRON_RUN_AS_NODE')
        expect(text, bundle).not.toMatch(/(?:spawn|execFile|exec|fork)\w*\(\s*process\.execPath/)
        expect(text, bundle).not.toMatch(/\bfork\(/)
      }
      // Where child processes are started at all, it is for the clipboard helpers.
      const starting = bundles.filter((bundle) => /\bspawn\(/.test(readFileSync(bundle, 'utf8')))
      for (const bundle of starting)
        expect(readFileSync(bundle, 'utf8'), bundle).toContain('ExcludeClipboardContentFromMonitorProcessing')
    },
  },
  enableCookieEncryption: {
    value: true,
    because: 'cookies on disk are encrypted with an OS-held key (the 3-D Secure window keeps none on disk anyway)',
    holds: () => undefined,
  },
  enableNodeOptionsEnvironmentVariable: {
    value: false,
    because: 'NODE_OPTIONS cannot inject code (--require) into main',
    holds: () => undefined,
  },
  enableNodeCliInspectArguments: {
    value: false,
    because: '--inspect and SIGUSR1 cannot attach a debugger that reads keys from main',
    holds: () => undefined,
  },
  enableEmbeddedAsarIntegrityValidation: {
    value: true,
    because: 'a changed app.asar is refused at start (macOS, Windows)',
    holds: () => expect(config.asar).not.toBe(false),
  },
  onlyLoadAppFromAsar: {
    value: true,
    because: 'the app is loaded only from the integrity-checked app.asar, never a loose app/ folder beside it',
    holds: () => expect(config.asar).not.toBe(false),
  },
  grantFileProtocolExtraPrivileges: {
    value: false,
    because: 'a file:// page gets no more than a browser gives it; the app never shows one (it is served from app://)',
    // Main never loads a file: page (the boot test shows every window loads app://).
    holds: () => {
      const main = readFileSync(join(root, 'out/main/index.js'), 'utf8')
      expect(main).not.toMatch(/\.loadFile\(/)
      expect(main).toContain('app://payout-desk/index.html')
    },
  },
}

describe('Electron fuses', () => {
  it.each(Object.entries(FUSES))('%s is set as intended, and what the app does relies on it', (fuse, expected) => {
    const fuses = (config.electronFuses ?? {}) as Record<string, unknown>
    expect(fuses[fuse], `${fuse}: ${expected.because}`).toBe(expected.value)
    expected.holds()
  })

  it('sets no fuse this file does not explain', () => {
    expect(Object.keys(config.electronFuses ?? {}).sort()).toEqual(Object.keys(FUSES).sort())
  })
})

describe('the loopback bridge', () => {
  it('is never part of the installed app', () => {
    const main = readFileSync(join(root, 'out/main/index.js'), 'utf8')
    expect(main).not.toContain('Missing or wrong bridge token')
    expect(main).not.toContain('Bridge listening')
  })
})
