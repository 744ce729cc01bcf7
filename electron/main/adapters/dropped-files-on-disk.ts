/**
 * Dropped files in the installed app: read where they are, by the path the preload took from the
 * File (webUtils.getPathForFile), never sent through IPC as bytes. The path comes from the renderer,
 * so main accepts only what a drop can be: an absolute path to a regular file, of a kind the
 * screen takes (the extensions of its Open dialog), no larger than MAX_OPENED_FILE_BYTES. A
 * compromised page can therefore make main read a spreadsheet or an image the user can read, never
 * an arbitrary file.
 */
import { stat } from 'node:fs/promises'
import { basename, extname, isAbsolute } from 'node:path'
import { MAX_OPENED_FILE_BYTES } from '../../../shared/ipc/files'
import { AppFailure } from '../../../shared/result'
import type { DroppedFiles, FileFilter } from './desktop'

export function acceptedExtensions(accept: readonly FileFilter[]): string[] {
  return accept.flatMap((filter) => filter.extensions.map((extension) => extension.toLowerCase()))
}

export function droppedFilesOnDisk(): DroppedFiles {
  return {
    async pathOf(file, accept) {
      const path = file.ref
      const name = basename(path) || file.name
      if (!isAbsolute(path)) {
        throw new AppFailure('bad_request', `${file.name} is not a file on this computer; drop it from a folder.`)
      }
      const extensions = acceptedExtensions(accept)
      if (!extensions.includes(extname(path).slice(1).toLowerCase())) {
        throw new AppFailure(
          'bad_request',
          `${name}: this screen opens ${extensions.map((e) => `.${e}`).join(', ')} files.`,
        )
      }
      let info
      try {
        info = await stat(path)
      } catch (error) {
        throw new AppFailure(
          'bad_request',
          `${name} could not be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`,
        )
      }
      if (!info.isFile()) throw new AppFailure('bad_request', `${name} is not a file.`)
      if (info.size > MAX_OPENED_FILE_BYTES) {
        throw new AppFailure(
          'bad_request',
          `${name} is larger than ${MAX_OPENED_FILE_BYTES / 1024 / 1024} MiB, more than any file this desk opens.`,
        )
      }
      return path
    },
  }
}
