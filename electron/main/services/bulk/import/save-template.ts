/**
 * "Download template" (decision 40): the payout template, XLSX or CSV, copied where the user
 * chooses in the Save dialog (in the browser, the bridge's Save is a download of the same file).
 */
import { copyFile } from 'node:fs/promises'
import { AppFailure } from '../../../../../shared/result'
import type { ServiceContext } from '../../service-context'
import type { TemplateKind } from './templates'
import { templatePath } from './templates'

export async function saveTemplate(
  context: Pick<ServiceContext, 'desktop'>,
  kind: TemplateKind,
  findTemplate: (kind: TemplateKind) => string = templatePath,
): Promise<{ path: string | null }> {
  let source: string
  try {
    source = findTemplate(kind)
  } catch (error) {
    throw new AppFailure('internal', (error as Error).message)
  }
  const path = await context.desktop.dialogs.chooseSavePath({
    title: 'Save the payout template',
    defaultName: `payouts-template.${kind}`,
    filters: [
      kind === 'xlsx'
        ? { name: 'Excel workbook', extensions: ['xlsx'] }
        : { name: 'CSV (comma-separated values)', extensions: ['csv'] },
    ],
  })
  if (!path) return { path: null }
  try {
    await copyFile(source, path)
  } catch (error) {
    throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
  }
  return { path }
}
