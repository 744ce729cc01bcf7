/**
 * The payments service's paths grouped by what they do (spec sections 2 to 5): what a real service
 * would meter together, and what answers in about the same time. The Sandbox meters by these groups
 * (electron/sandbox/rate-limit.ts) and the desk's pace keeps one latency floor per group
 * (electron/main/services/api/adaptive-pace.ts), so a slow endpoint is never taken for a queue on a
 * fast one.
 */
export type ServicePathGroup = 'name-checks' | 'lists' | 'payouts' | 'status' | 'cards' | 'charges'

export const SERVICE_PATH_GROUPS: readonly ServicePathGroup[] = [
  'name-checks',
  'lists',
  'payouts',
  'status',
  'cards',
  'charges',
]

/** The group of a request by its method and path (a route pattern or a real path alike). */
export function servicePathGroupOf(method: string, path: string): ServicePathGroup {
  if (path.endsWith('/resolve')) return 'name-checks'
  if (path.startsWith('/merchant/api/v1/misc/') || path === '/merchant/api/v1/payouts/availability') return 'lists'
  if (method === 'POST' && path.includes('/disburse')) return 'payouts'
  if (path.startsWith('/merchant/api/v1/charges')) return 'charges'
  if (path.startsWith('/api/v1/card')) return 'cards'
  return 'status'
}
