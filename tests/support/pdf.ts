/**
 * Reading PDFs back in tests, as a person would check them: the text (poppler's pdftotext, which
 * decompresses the content streams and maps the embedded font back to Unicode) and the pages as
 * PNG images (pdftoppm), whose pixels are counted to prove a page is not blank.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'

/** The text of every page in content order ("raw"), each page ending with a form feed. */
export function pdfText(bytes: Uint8Array): string {
  return execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: bytes, maxBuffer: 1 << 28 }).toString(
    'utf8',
  )
}

/** The text of each page. */
export function pdfPages(bytes: Uint8Array): string[] {
  const pages = pdfText(bytes).split('\f')
  return pages[pages.length - 1]?.trim() === '' ? pages.slice(0, -1) : pages
}

/** The document's properties (pdfinfo). */
export function pdfInfo(bytes: Uint8Array): Record<string, string> {
  const text = execFileSync('pdfinfo', ['-'], { input: bytes }).toString('utf8')
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1] as string, match[2] as string]),
  )
}

export interface RenderedPage {
  file: string
  width: number
  height: number
  /** Share of pixels clearly darker than white (0 to 1). */
  ink: number
}

/** Renders pages to PNG images (grey) with pdftoppm and measures how much of each is not white. */
export async function renderPages(
  bytes: Uint8Array,
  options: { dpi?: number; keepIn?: string } = {},
): Promise<RenderedPage[]> {
  const folder = options.keepIn ?? (await mkdtemp(join(tmpdir(), 'pdf-pages-')))
  try {
    execFileSync('pdftoppm', ['-png', '-gray', '-r', String(options.dpi ?? 40), '-', join(folder, 'page')], {
      input: bytes,
    })
    const files = (await readdir(folder)).filter((name) => name.startsWith('page') && name.endsWith('.png')).sort()
    const pages: RenderedPage[] = []
    for (const name of files) {
      const image = decodeGreyPng(await readFile(join(folder, name)))
      let dark = 0
      for (const value of image.pixels) if (value < 200) dark++
      pages.push({
        file: join(folder, name),
        width: image.width,
        height: image.height,
        ink: dark / image.pixels.length,
      })
    }
    return pages
  } finally {
    if (!options.keepIn) await rm(folder, { recursive: true, force: true })
  }
}

/** An 8-bit, non-interlaced PNG (grey, grey and alpha, RGB or RGBA: what pdftoppm writes) as grey values. */
export function decodeGreyPng(png: Buffer): { width: number; height: number; pixels: Uint8Array } {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let offset = 8
  let width = 0
  let height = 0
  let channels = 1
  const data: Buffer[] = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      const colorType = body[9] as number
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colorType] ?? 0
      if (body[8] !== 8 || channels === 0 || body[12] !== 0) throw new Error('expected an 8-bit, non-interlaced PNG')
    } else if (type === 'IDAT') data.push(body)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const stride = width * channels
  const bytes = new Uint8Array(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] as number
      const left = x >= channels ? (bytes[y * stride + x - channels] as number) : 0
      const up = y > 0 ? (bytes[(y - 1) * stride + x] as number) : 0
      const upLeft = x >= channels && y > 0 ? (bytes[(y - 1) * stride + x - channels] as number) : 0
      let predicted = 0
      if (filter === 1) predicted = left
      else if (filter === 2) predicted = up
      else if (filter === 3) predicted = (left + up) >> 1
      else if (filter === 4) {
        const p = left + up - upLeft
        const pa = Math.abs(p - left)
        const pb = Math.abs(p - up)
        const pc = Math.abs(p - upLeft)
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
      }
      bytes[y * stride + x] = (value + predicted) & 0xff
    }
  }
  const pixels = new Uint8Array(width * height)
  const colours = Math.min(channels, 3) === 2 ? 1 : Math.min(channels, 3)
  for (let i = 0; i < pixels.length; i++) {
    let sum = 0
    for (let c = 0; c < colours; c++) sum += bytes[i * channels + c] as number
    pixels[i] = Math.round(sum / colours)
  }
  return { width, height, pixels }
}
