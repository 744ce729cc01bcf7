/**
 * Packaging cannot run here (no Electron binary can be fetched), so the configuration is checked
 * instead: valid for electron-builder's own schema, all four targets, the fuses, and a preload
 * that a sandboxed renderer can load.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { DebugLogger } from 'builder-util'
import { minimatch } from 'minimatch'
import { describe, expect, it } from 'vitest'
import { templatePath } from '../../../electron/main/services/bulk/import/templates'

const root = join(__dirname, '../../..')

describe('electron-builder configuration', () => {
  it('is valid for electron-builder and targets nsis, dmg, AppImage and deb', async () => {
    const config = await getConfig(root, null, null)
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
    const targets = (list: unknown) => JSON.stringify(list)
    expect(targets(config.win?.target)).toContain('nsis')
    expect(targets(config.mac?.target)).toContain('dmg')
    expect(targets(config.linux?.target)).toContain('AppImage')
    expect(targets(config.linux?.target)).toContain('deb')
  })

  it('publishes updates over https for electron-updater, with the zip macOS updates need', async () => {
    const config = await getConfig(root, null, null)
    const publish = [config.publish].flat()
    expect(publish).toHaveLength(1)
    expect(publish[0]).toMatchObject({ provider: 'generic', channel: 'latest' })
    expect((publish[0] as { url: string }).url).toMatch(/^https:\/\//)
    expect(JSON.stringify(config.mac?.target)).toContain('zip')
    const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(Object.keys(packageJson.dependencies)).toContain('electron-updater')
  })

  it('ships the payout templates where a packaged app looks for them', async () => {
    const config = await getConfig(root, null, null)
    const extra = [config.extraResources].flat() as Array<{ from: string; to: string; filter: string[] }>
    const templates = extra.find((entry) => entry.from === 'resources/templates')
    expect(templates?.to).toBe('templates')
    for (const kind of ['xlsx', 'csv'] as const) {
      expect(existsSync(join(root, templates!.from, `payouts-template.${kind}`))).toBe(true)
      expect(templates!.filter).toContain(`*.${kind}`)
    }
    // templatePath() reads process.resourcesPath/templates first in a packaged app.
    const resourcesPath = join(root, 'resources')
    const saved = (process as { resourcesPath?: string }).resourcesPath
    ;(process as { resourcesPath?: string }).resourcesPath = resourcesPath
    try {
      expect(templatePath('csv')).toBe(join(resourcesPath, 'templates', 'payouts-template.csv'))
    } finally {
      ;(process as { resourcesPath?: string }).resourcesPath = saved
    }
  })

  it('ships the two font faces the PDF documents embed, and leaves the package’s others out', async () => {
    const config = await getConfig(root, null, null)
    // electron-builder hands `files` back as { filter: [...] } entries.
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

  it('sets the fuses that stop the app binary being used to run other code', async () => {
    const config = await getConfig(root, null, null)
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    })
    expect(config.asarUnpack).toContain('**/*.node')
  })
})

describe('built bundles', () => {
  const preload = join(root, 'out/preload/index.js')
  it('has a preload that requires nothing but electron (a sandboxed preload can load nothing else)', () => {
    expect(existsSync(preload), 'run `npm run build` before the unit tests').toBe(true)
    const required = [...readFileSync(preload, 'utf8').matchAll(/require\(["']([^"']+)["']\)/g)].map(
      (match) => match[1],
    )
    expect([...new Set(required)]).toEqual(['electron'])
  })

  it('never lets the packaged main start the test bridge', () => {
    const main = readFileSync(join(root, 'out/main/index.js'), 'utf8')
    expect(main).not.toContain('Missing or wrong bridge token')
    expect(main).not.toContain('Bridge listening')
  })
})
