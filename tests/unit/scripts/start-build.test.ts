/**
 * `npm start` opens the build it has when nothing changed since it was built, and builds first when
 * anything the app is built from changed (decision 67): modification times, as make compares them.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { APP_OUTPUTS, appBuildNeeded } from '../../../scripts/start.mjs'

const folders: string[] = []
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })))

function project(): string {
  const folder = mkdtempSync(join(tmpdir(), 'payout-desk-start-'))
  folders.push(folder)
  return folder
}

function write(folder: string, file: string, secondsAgo: number): void {
  const path = join(folder, file)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, 'x')
  const at = Date.now() / 1000 - secondsAgo
  utimesSync(path, at, at)
}

describe('whether npm start builds first', () => {
  it('builds a project never built, naming the first output missing', () => {
    const folder = project()
    write(folder, 'electron/main/index.ts', 60)
    expect(appBuildNeeded(folder)).toBe('out/main/index.js is not built yet')
  })

  it('opens a build newer than every source; builds again after a source changes, naming it', () => {
    const folder = project()
    write(folder, 'electron/main/index.ts', 120)
    write(folder, 'renderer/src/App.vue', 120)
    write(folder, 'package-lock.json', 120)
    for (const output of APP_OUTPUTS) write(folder, output, 60)
    expect(appBuildNeeded(folder)).toBeNull()
    write(folder, 'renderer/src/App.vue', 10)
    expect(appBuildNeeded(folder)).toBe('renderer/src/App.vue changed since out/main/index.js was built')
  })

  it('a build stopped part way (the renderer older than a source) is built again', () => {
    const folder = project()
    write(folder, 'shared/money.ts', 60)
    write(folder, 'out/main/index.js', 10)
    write(folder, 'out/preload/index.js', 10)
    write(folder, 'out/renderer/index.html', 120)
    expect(appBuildNeeded(folder)).toBe('shared/money.ts changed since out/renderer/index.html was built')
  })

  it('a missing output is built even when the others are current', () => {
    const folder = project()
    write(folder, 'electron/main/index.ts', 60)
    write(folder, 'out/main/index.js', 10)
    write(folder, 'out/renderer/index.html', 10)
    expect(appBuildNeeded(folder)).toBe('out/preload/index.js is not built yet')
  })
})
