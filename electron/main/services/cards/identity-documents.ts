/**
 * Identity documents picked for a new cardholder. Main reads the file (from the path the Open
 * dialog gave, or where a dropped file is), checks its kind by its first bytes and its size, and
 * keeps the Base64 in memory only, until the cardholder is created or the document discarded.
 * Nothing is written to disk.
 */
import { randomBytes } from 'node:crypto'
import { open } from 'node:fs/promises'
import { basename } from 'node:path'
import type { IdentityFileKind, IdentityImagePreview } from '../../../../shared/domain/cards'
import {
  IDENTITY_FILE_MAX_BYTES,
  IDENTITY_FILE_TAIL_BYTES,
  identityFileEndProblem,
  identityFileProblem,
} from '../../../../shared/rules/cardholder'
import { AppFailure } from '../../../../shared/result'
import type { DroppedFiles, FileDialogs } from '../../adapters/desktop'
import type { DroppedFile } from '../../../../shared/ipc/files'

interface HeldDocument {
  name: string
  kind: IdentityFileKind
  base64: string
}

/** A person works on one cardholder at a time; a few held documents cover changes of mind. */
const MAX_HELD = 4

/** What an identity document may be, chosen with Open or dropped. */
const IDENTITY_FILES = [{ name: 'Identity document (JPEG, PNG, PDF)', extensions: ['jpg', 'jpeg', 'png', 'pdf'] }]

const MIME: Record<IdentityFileKind, string> = { jpeg: 'image/jpeg', png: 'image/png', pdf: 'application/pdf' }

export interface IdentityDocuments {
  choose(dialogs: FileDialogs): Promise<IdentityImagePreview | null>
  fromDropped(files: DroppedFiles, file: DroppedFile): Promise<IdentityImagePreview>
  /** The Base64 held for a token; the token stays valid until `release`. */
  base64Of(token: string): string
  release(token: string): void
}

export function createIdentityDocuments(): IdentityDocuments {
  const held = new Map<string, HeldDocument>()

  function hold(name: string, bytes: Buffer): IdentityImagePreview {
    const checked = identityFileProblem(bytes.subarray(0, 16), bytes.length)
    if (checked.problem !== null) throw new AppFailure('bad_request', `${name}: ${checked.problem}`)
    // A JPEG's end marker may come before a trailer; the rest of the document is never that short.
    const tail = bytes.subarray(Math.max(2, bytes.length - IDENTITY_FILE_TAIL_BYTES))
    const cut = identityFileEndProblem(checked.kind, tail)
    if (cut !== null) throw new AppFailure('bad_request', `${name}: ${cut}`)
    const base64 = bytes.toString('base64')
    const token = randomBytes(16).toString('hex')
    held.set(token, { name, kind: checked.kind, base64 })
    while (held.size > MAX_HELD) held.delete(held.keys().next().value as string)
    return {
      token,
      name,
      kind: checked.kind,
      bytes: bytes.length,
      previewUrl: checked.kind === 'pdf' ? null : `data:${MIME[checked.kind]};base64,${base64}`,
    }
  }

  async function holdFile(path: string): Promise<IdentityImagePreview> {
    const name = basename(path)
    let handle
    try {
      handle = await open(path, 'r')
    } catch (error) {
      throw new AppFailure(
        'bad_request',
        `${name} could not be opened (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      )
    }
    try {
      const { size } = await handle.stat()
      // Refuse a large file by its size before reading any of it into memory.
      if (size > IDENTITY_FILE_MAX_BYTES) {
        const checked = identityFileProblem(new Uint8Array(), size)
        throw new AppFailure('bad_request', `${name}: ${checked.problem ?? 'too large'}`)
      }
      return hold(name, await handle.readFile())
    } finally {
      await handle.close()
    }
  }

  return {
    async choose(dialogs) {
      const path = await dialogs.chooseOpenPath({ title: 'Choose the identity document', filters: IDENTITY_FILES })
      return path === null ? null : holdFile(path)
    },
    fromDropped: async (files, file) => holdFile(await files.pathOf(file, IDENTITY_FILES)),
    base64Of(token) {
      const document = held.get(token)
      if (!document) {
        throw new AppFailure(
          'bad_request',
          'The identity document is no longer held by the app (it was replaced or the app restarted). Choose it again.',
          { issues: [{ path: 'identity.image', message: 'Choose the identity document again.' }] },
        )
      }
      return document.base64
    },
    release: (token) => void held.delete(token),
  }
}
