/**
 * Where the payout templates are (for "Download template"): in a packaged app under
 * resources/templates (electron-builder extraResources), else in the checkout's resources/templates
 * (built app: out/main; bridge and tests: this source folder).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'

export type TemplateKind = 'xlsx' | 'csv'

export function templatePath(kind: TemplateKind): string {
  const name = `payouts-template.${kind}`
  const packaged = (process as { resourcesPath?: string }).resourcesPath
  const candidates = [
    ...(packaged ? [join(packaged, 'templates', name)] : []),
    join(__dirname, '..', '..', 'resources', 'templates', name),
    join(__dirname, '..', '..', '..', '..', '..', 'resources', 'templates', name),
  ]
  const found = candidates.find((candidate) => existsSync(candidate))
  if (!found)
    throw new Error(`The ${kind.toUpperCase()} payout template is missing (looked in ${candidates.join(', ')}).`)
  return found
}
