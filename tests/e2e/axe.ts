/** axe as the e2e suite runs it: WCAG 2.1 A/AA and best practices, serious and critical findings. */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** What axe found that matters: serious and critical violations, each with where it is. */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page })
  if (within) builder.include(within)
  const results = await builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    )
}
