/**
 * No module of the app is over about 400 lines without a reason written at its top (a `Size:` line
 * among its first 40), so a reader sees why it is big or that it should be split. The app's
 * modules: electron/, shared/, renderer/src/, scripts/ (.ts, .mjs and .vue).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..', '..')
const SOURCES = ['electron', 'shared', join('renderer', 'src'), 'scripts']
const LIMIT = 400
/** Where the reason must stand: the module's first lines (its header comment). */
const HEAD_LINES = 40

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path)
    return /\.(ts|mjs|vue)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length
}

/** Modules over the limit, with no `Size:` reason in their first lines. */
function oversizedWithoutReason(): string[] {
  return SOURCES.flatMap((source) => sourceFiles(join(ROOT, source)))
    .map((file) => ({ file: relative(ROOT, file).split('\\').join('/'), text: readFileSync(file, 'utf8') }))
    .filter(({ text }) => lineCount(text) > LIMIT)
    .filter(({ text }) => !/\bSize:\s*\S/.test(text.split('\n').slice(0, HEAD_LINES).join('\n')))
    .map(({ file, text }) => `${file} (${lineCount(text)} lines)`)
}

describe('module size', () => {
  it(`every module over ${LIMIT} lines says at its top why it is that big`, () => {
    expect(oversizedWithoutReason()).toEqual([])
  })
})
