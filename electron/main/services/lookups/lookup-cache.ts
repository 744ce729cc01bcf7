/**
 * Banks and mobile money operators change rarely: they are read once per profile and country and
 * kept in main until the user asks for a refresh. One cache per running app, shared by the lookups
 * screen and the payout checks in main.
 */
import type { Bank, BankCountry, MobileMoneyOperator, OperatorCountry } from '../../../../shared/domain/lookups'
import type { ServiceContext } from '../service-context'

export interface LookupCache {
  banks(countryCode: BankCountry, options?: { refresh?: boolean; profileId?: string }): Promise<Bank[]>
  operators(
    countryCode: OperatorCountry,
    options?: { refresh?: boolean; profileId?: string },
  ): Promise<MobileMoneyOperator[]>
}

const caches = new WeakMap<ServiceContext, LookupCache>()

/** The one cache of this app's services (created on first use). */
export function lookupCacheOf(context: ServiceContext): LookupCache {
  let cache = caches.get(context)
  if (!cache) {
    cache = createLookupCache(context.apiFor)
    caches.set(context, cache)
  }
  return cache
}

export function createLookupCache(apiFor: ServiceContext['apiFor']): LookupCache {
  const entries = new Map<string, Promise<unknown>>()

  async function cached<T>(
    what: string,
    options: { refresh?: boolean; profileId?: string } | undefined,
    load: (api: Awaited<ReturnType<ServiceContext['apiFor']>>['api']) => Promise<T>,
  ): Promise<T> {
    const { profileId, api } = await apiFor(options?.profileId)
    const key = `${profileId}\u0000${what}`
    const existing = entries.get(key)
    if (existing && !options?.refresh) return existing as Promise<T>
    const loading = load(api)
    entries.set(key, loading)
    // A failed read is not kept: the next ask tries again.
    loading.catch(() => {
      if (entries.get(key) === loading) entries.delete(key)
    })
    return loading
  }

  return {
    banks: (countryCode, options) => cached(`banks:${countryCode}`, options, (api) => api.lookups.banks(countryCode)),
    operators: (countryCode, options) =>
      cached(`operators:${countryCode}`, options, (api) => api.lookups.operators(countryCode)),
  }
}
