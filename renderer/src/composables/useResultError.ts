import { ref } from 'vue'
import type { AppError, Result } from '../../../shared/result'
import { fieldLabel } from '../../../shared/words/field-names'

/**
 * The error of the last action a component ran, for <ResultError :error="error" />. Every screen
 * keeps its errors this way, so they all look and read the same.
 */
export function useResultError() {
  const error = ref<AppError | null>(null)

  /** Remembers the failure (or clears the old one) and tells whether the call succeeded. */
  function check<T>(result: Result<T>): result is { ok: true; data: T } {
    error.value = result.ok ? null : result.error
    return result.ok
  }

  function clear(): void {
    error.value = null
  }

  return { error, check, clear }
}

export interface IssueLine {
  /** The field's path as main names it (`address.city`), to put the problem on its field. */
  path: string
  /** The field in words ("City (address)"), to show. */
  where: string
  message: string
}

/**
 * Reads `details.issues` ({path, message}[]) of a validation failure, ignoring anything else; the
 * path is said in words ("City (address)", not `address.city`).
 */
export function issuesOf(error: AppError | null | undefined): IssueLine[] {
  const details = error?.details
  if (!details || typeof details !== 'object' || !('issues' in details)) return []
  const issues = (details as { issues: unknown }).issues
  if (!Array.isArray(issues)) return []
  return issues.flatMap((issue: unknown): IssueLine[] => {
    if (!issue || typeof issue !== 'object') return []
    const { path, message } = issue as { path?: unknown; message?: unknown }
    if (typeof message !== 'string') return []
    const parts = Array.isArray(path) ? path.map(String) : typeof path === 'string' ? path.split('.') : []
    return [{ path: parts.join('.'), where: fieldLabel(parts), message }]
  })
}
