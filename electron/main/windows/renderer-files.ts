/**
 * Which file of the built renderer (out/renderer) a request asks for: the one answer behind both
 * ways the page is served, the installed app's app:// scheme (app-scheme.ts) and the loopback
 * bridge (ipc/bridge-transport.ts). No Electron here, so it is unit-tested as it runs.
 *
 * A request gets a file under the root, with its content type, or a refusal: only GET and HEAD;
 * the query and fragment are ignored; "/" is index.html; nothing outside the root (no "..", even
 * encoded, no encoded slash or backslash, no empty or dot segment, no drive letter); no directory;
 * no file of a kind the build does not emit.
 */
import { stat } from 'node:fs/promises'
import { extname, isAbsolute, join, relative, resolve } from 'node:path'

/** Every kind of file the renderer build emits (and a few it may), with the type it is served as. */
export const RENDERER_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
}

export type RendererFileAnswer =
  { status: 200; file: string; contentType: string } | { status: 404 | 405; reason: string }

/** The scheme and host a request must come to; absent: any (the bridge checks its Host itself). */
export interface ExpectedOrigin {
  protocol: string
  host: string
}

const notFound = (reason: string): RendererFileAnswer => ({ status: 404, reason })

/** The path part of a URL exactly as it was written (still percent-encoded), without query or fragment. */
function rawPath(url: string): string | null {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)
  const rest = scheme ? url.slice(scheme[0].length) : url
  if (!rest.startsWith('/') && rest !== '' && !/^[?#]/.test(rest)) return null
  const end = rest.search(/[?#]/)
  const path = end < 0 ? rest : rest.slice(0, end)
  return path === '' ? '/' : path
}

/** The path's segments, decoded, or null when any of them could step outside the root. */
function safeSegments(path: string): string[] | null {
  // Backslashes and encoded separators or NULs never appear in our own URLs: refuse them outright.
  if (/[\\\0]|%(2f|5c|00)/i.test(path)) return null
  const encoded = path === '/' ? ['index.html'] : path.slice(1).split('/')
  const segments: string[] = []
  for (const part of encoded) {
    let segment: string
    try {
      segment = decodeURIComponent(part)
    } catch {
      return null
    }
    // Empty ("//" or a trailing "/": a directory), ".", "..", dot files, and "C:" style segments.
    if (segment === '' || segment.startsWith('.') || segment.includes(':') || /[\\/\0]/.test(segment)) return null
    segments.push(segment)
  }
  return segments
}

export async function resolveRendererFile(
  root: string,
  request: { method: string; url: string },
  expected?: ExpectedOrigin,
): Promise<RendererFileAnswer> {
  const method = request.method.toUpperCase()
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, reason: 'Only GET and HEAD.' }
  if (expected) {
    let parsed: URL
    try {
      parsed = new URL(request.url)
    } catch {
      return notFound('Not a URL.')
    }
    if (parsed.protocol !== expected.protocol || parsed.host !== expected.host) return notFound('Not our origin.')
  }
  const path = rawPath(request.url)
  const segments = path === null ? null : safeSegments(path)
  if (!segments) return notFound('Not a file of the app.')

  const base = resolve(root)
  const file = resolve(join(base, ...segments))
  const inside = relative(base, file)
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return notFound('Outside the app.')

  const contentType = RENDERER_CONTENT_TYPES[extname(file).toLowerCase()]
  if (!contentType) return notFound('Not a kind of file the app serves.')
  try {
    if (!(await stat(file)).isFile()) return notFound('Not a file.')
  } catch {
    return notFound('No such file.')
  }
  return { status: 200, file, contentType }
}
