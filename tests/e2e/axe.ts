/** axe as the e2e suite runs it: WCAG 2.1 A/AA and best practices, serious and critical findings. */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/**
 * The rules whose outcome depends on colour: all a second theme can change, since both themes
 * render the same markup (naive-ui themes are colour variables, renderer/src/theme/).
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const

/**
 * What axe found that matters: serious and critical violations, each with where it is. `rules`
 * limits the check to those rules (the dark theme, once the light one passed every rule).
 */
export async function seriousViolations(page: Page, within?: string, rules?: readonly string[]): Promise<string[]> {
  const builder = new AxeBuilder({ page })
  if (within) builder.include(within)
  if (rules) builder.withRules([...rules])
  else builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
  const results = await builder.analyze()
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
