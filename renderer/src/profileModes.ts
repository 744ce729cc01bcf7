import type { ProfileMode } from '../../shared/domain/profiles'

type TagType = 'error' | 'info' | 'success'

/** How each mode is labelled everywhere, so Live always reads as real money and the others never do. */
export const modePresentation: Record<ProfileMode, { label: string; tag: string; tagType: TagType }> = {
  live: { label: 'Live', tag: 'LIVE — real money', tagType: 'error' },
  test: { label: 'Test', tag: 'TEST — not real money', tagType: 'info' },
  sandbox: { label: 'Sandbox', tag: 'SANDBOX — simulated, not real money', tagType: 'success' },
}
