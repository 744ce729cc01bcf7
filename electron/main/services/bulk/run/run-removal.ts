/**
 * Deleting runs (decision 40): a run of which nothing was sent can be deleted (its folder goes); a
 * run with anything sent can only be archived: hidden from the list, kept on disk and in the
 * journal, shown again with "Show archived". Which of the two a run allows is decided with every
 * other action in run-actions.ts (decision 096).
 */
import { rm } from 'node:fs/promises'

/** The run's folder and everything in it. */
export async function removeRunFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true })
}
