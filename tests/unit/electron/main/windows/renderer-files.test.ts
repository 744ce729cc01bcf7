/**
 * The one answer behind app:// (installed app) and the bridge's static files: a request URL gets a
 * file under the renderer folder, or a refusal. Run against a folder with a secret beside it, and
 * against the real build, where every file it emits must be served with its proper type.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { extname, join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveRendererFile } from '../../../../../electron/main/windows/renderer-files'

const APP = { protocol: 'app:', host: 'payout-desk' }
let parent: string
let root: string

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'renderer-files-'))
  root = join(parent, 'renderer')
  await mkdir(join(root, 'assets', 'nested'), { recursive: true })
  await writeFile(join(root, 'index.html'), '<div id="app"></div>')
  await writeFile(join(root, 'assets', 'app.js'), 'export {}')
  await writeFile(join(root, 'assets', 'style.css'), 'body{}')
  await writeFile(join(root, 'assets', 'data.bin'), 'binary')
  await writeFile(join(root, '.env'), 'SECRET=1')
  // What a traversal would reach: beside the renderer folder, and one level up.
  await writeFile(join(parent, 'secret.txt'), 'root:x:0:0')
})
afterAll(() => rm(parent, { recursive: true, force: true }))

const get = (url: string, method = 'GET') => resolveRendererFile(root, { method, url }, APP)

describe('resolveRendererFile', () => {
  it('serves index.html for / and by name, with its type', async () => {
    for (const url of ['app://payout-desk/', 'app://payout-desk', 'app://payout-desk/index.html']) {
      expect(await get(url)).toEqual({
        status: 200,
        file: join(root, 'index.html'),
        contentType: 'text/html; charset=utf-8',
      })
    }
  })

  it('ignores the query string and the fragment', async () => {
    expect(await get('app://payout-desk/assets/app.js?v=3#top')).toMatchObject({
      status: 200,
      file: join(root, 'assets', 'app.js'),
      contentType: 'text/javascript; charset=utf-8',
    })
    expect(await get('app://payout-desk/index.html#/settings')).toMatchObject({ status: 200 })
    expect(await get('app://payout-desk/?x=..%2f..%2fsecret.txt')).toMatchObject({ file: join(root, 'index.html') })
  })

  it.each([
    ['a plain ..', 'app://payout-desk/../secret.txt'],
    ['.. after a folder', 'app://payout-desk/assets/../../secret.txt'],
    ['an encoded ..', 'app://payout-desk/%2e%2e/secret.txt'],
    ['an upper-case encoded ..', 'app://payout-desk/%2E%2E/%2E%2E/etc/passwd'],
    ['a half-encoded ..', 'app://payout-desk/.%2e/secret.txt'],
    ['encoded slashes', 'app://payout-desk/assets%2f..%2f..%2fsecret.txt'],
    ['an encoded slash at the start', 'app://payout-desk/%2Fetc%2Fpasswd'],
    ['an encoded backslash', 'app://payout-desk/..%5csecret.txt'],
    ['backslashes', 'app://payout-desk/assets\\..\\..\\secret.txt'],
    ['an absolute path (empty segment)', 'app://payout-desk//etc/passwd'],
    ['a drive letter', 'app://payout-desk/C:/Windows/win.ini'],
    ['an encoded NUL', 'app://payout-desk/index.html%00.js'],
    ['a malformed escape', 'app://payout-desk/%E0%A4%A.js'],
  ])('refuses %s with a 404, never a file outside the folder', async (_label, url) => {
    const answer = await get(url)
    expect(answer.status).toBe(404)
  })

  it('refuses unknown files, directories, dot files and kinds of file the build does not emit', async () => {
    expect(await get('app://payout-desk/nope.js')).toMatchObject({ status: 404 })
    expect(await get('app://payout-desk/assets')).toMatchObject({ status: 404 })
    expect(await get('app://payout-desk/assets/')).toMatchObject({ status: 404 })
    expect(await get('app://payout-desk/assets/nested/')).toMatchObject({ status: 404 })
    expect(await get('app://payout-desk/.env')).toMatchObject({ status: 404 })
    expect(await get('app://payout-desk/assets/data.bin')).toMatchObject({ status: 404 })
  })

  it('answers GET and HEAD only', async () => {
    expect(await get('app://payout-desk/index.html', 'HEAD')).toMatchObject({ status: 200 })
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      expect(await get('app://payout-desk/index.html', method)).toEqual({ status: 405, reason: 'Only GET and HEAD.' })
    }
  })

  it('answers only its own scheme and host when it is given one', async () => {
    expect(await get('app://evil.example/index.html')).toMatchObject({ status: 404 })
    expect(await get('https://payout-desk/index.html')).toMatchObject({ status: 404 })
    expect(await get('file:///index.html')).toMatchObject({ status: 404 })
    expect(await get('not a url')).toMatchObject({ status: 404 })
    // The bridge passes the request's path alone (it checks the Host header itself).
    expect(await resolveRendererFile(root, { method: 'GET', url: '/assets/style.css' })).toMatchObject({
      status: 200,
      contentType: 'text/css; charset=utf-8',
    })
  })
})

describe('the built renderer (out/renderer)', () => {
  const built = join(__dirname, '../../../../../out/renderer')
  const expected: Record<string, RegExp> = {
    '.html': /^text\/html; charset=utf-8$/,
    '.js': /^text\/javascript; charset=utf-8$/,
    '.css': /^text\/css; charset=utf-8$/,
    '.svg': /^image\/svg\+xml$/,
    '.png': /^image\/png$/,
    '.woff2': /^font\/woff2$/,
    '.json': /^application\/json/,
    '.map': /^application\/json/,
    '.ico': /^image\/x-icon$/,
  }

  async function filesUnder(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true })
    const nested = await Promise.all(
      entries.map((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)])),
    )
    return nested.flat()
  }

  it('serves every file the build emits, each with the type its kind needs', async () => {
    expect(existsSync(join(built, 'index.html')), 'run `npm run build` before the unit tests').toBe(true)
    const files = await filesUnder(built)
    expect(files.length).toBeGreaterThan(10)
    for (const file of files) {
      const url = `app://payout-desk/${relative(built, file).split('\\').join('/')}`
      const answer = await resolveRendererFile(built, { method: 'GET', url }, APP)
      expect(answer, url).toMatchObject({ status: 200, file })
      const pattern = expected[extname(file)]
      expect(pattern, `a kind of file this test does not know: ${extname(file)}`).toBeDefined()
      expect(answer.status === 200 && answer.contentType, url).toMatch(pattern!)
    }
  })
})
