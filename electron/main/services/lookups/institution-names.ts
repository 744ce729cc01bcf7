/**
 * Banks and operators by name for what main writes (exports, documents): the service's lists from
 * the lookup cache, for the countries of the currencies at hand. A list that cannot be read (no
 * network, keys missing) leaves its codes said plainly ("Bank 058"); nothing fails for want of a name.
 */
import type { InstitutionDirectory } from '../../../../shared/words/institutions'
import { BANK_COUNTRY_OF_CURRENCY, institutionDirectory } from '../../../../shared/words/institutions'
import type { ServiceContext } from '../service-context'
import { lookupCacheOf } from './lookup-cache'

const OPERATOR_COUNTRY_OF_CURRENCY: Readonly<Record<string, 'KE' | 'GH'>> = { KES: 'KE', GHS: 'GH' }

export async function institutionNames(
  context: ServiceContext,
  currencies: Iterable<string>,
  profileId?: string,
): Promise<InstitutionDirectory> {
  const cache = lookupCacheOf(context)
  const wanted = [...new Set(currencies)]
  const options = profileId === undefined ? {} : { profileId }
  const bankCountries = [...new Set(wanted.flatMap((c) => BANK_COUNTRY_OF_CURRENCY[c] ?? []))]
  const operatorCountries = [...new Set(wanted.flatMap((c) => OPERATOR_COUNTRY_OF_CURRENCY[c] ?? []))]
  const [banks, operators] = await Promise.all([
    Promise.all(bankCountries.map((country) => cache.banks(country, options).catch(() => []))),
    Promise.all(operatorCountries.map((country) => cache.operators(country, options).catch(() => []))),
  ])
  return institutionDirectory(banks.flat(), operators.flat())
}
