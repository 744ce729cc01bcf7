/**
 * Identity documents picked for a new cardholder. The file reader's worker reads the file (from the
 * path the Open dialog gave, or where a dropped file is) and checks its kind by its first bytes and
 * its size (file-reader-jobs.ts, decision 100); main keeps the Base64 in memory only, until the cardholder is created or the document discarded.
 * Nothing is written to disk.
 */
import { randomBytes } from 'node:crypto'
import type { IdentityFileKind, IdentityImagePreview } from '../../../../shared/domain/cards'
import { AppFailure } from '../../../../shared/result'
import type { DroppedFiles, FileDialogs } from '../../adapters/desktop'
import type { DroppedFile } from '../../../../shared/ipc/files'
import { readFileOffMain } from '../files'

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

  /** The file is read and checked in the file reader's worker, never on main's thread (decision 100). */
  async function holdFile(path: string): Promise<IdentityImagePreview> {
    const checked = await readFileOffMain({ job: 'identity', path })
    const token = randomBytes(16).toString('hex')
    held.set(token, { name: checked.name, kind: checked.kind, base64: checked.base64 })
    while (held.size > MAX_HELD) held.delete(held.keys().next().value as string)
    return {
      token,
      name: checked.name,
      kind: checked.kind,
      bytes: checked.bytes,
      previewUrl: checked.kind === 'pdf' ? null : `data:${MIME[checked.kind]};base64,${checked.base64}`,
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
