/**
 * Phone and mobile-money numbers as people of each country write them, for hints and examples that
 * match the chosen country: a Kenyan example for KES, a Ghanaian one for GHS. Numbers are the
 * well-known test forms (operator prefixes of each country), written with the country code.
 */

interface PhoneExample {
  /** ISO 3166 alpha-2. */
  country: string
  countryName: string
  callingCode: string
  /** A full example with the country code, digits only (the form the service takes). */
  example: string
}

const EXAMPLES: readonly PhoneExample[] = [
  { country: 'NG', countryName: 'Nigeria', callingCode: '234', example: '2348012345678' },
  { country: 'KE', countryName: 'Kenya', callingCode: '254', example: '254712345678' },
  { country: 'GH', countryName: 'Ghana', callingCode: '233', example: '233241234567' },
  { country: 'ZA', countryName: 'South Africa', callingCode: '27', example: '27821234567' },
]

/** The country of a payout currency. */
const COUNTRY_OF_CURRENCY: Readonly<Record<string, string>> = { NGN: 'NG', KES: 'KE', GHS: 'GH', ZAR: 'ZA' }

export function phoneExampleForCountry(country: string): PhoneExample | null {
  return EXAMPLES.find((example) => example.country === country.toUpperCase()) ?? null
}

export function phoneExampleForCurrency(currency: string): PhoneExample | null {
  const country = COUNTRY_OF_CURRENCY[currency.toUpperCase()]
  return country ? phoneExampleForCountry(country) : null
}

/** "e.g. 254712345678" for KES; a neutral example when the currency names no country. */
export function mobileNumberPlaceholder(currency: string): string {
  const example = phoneExampleForCurrency(currency)
  return example ? `e.g. ${example.example}` : 'e.g. 2348012345678'
}

/** "+254712345678" for a Kenyan address; the Nigerian form when the country is not one of ours. */
export function phonePlaceholderForCountry(country: string): string {
  return `+${(phoneExampleForCountry(country) ?? (EXAMPLES[0] as PhoneExample)).example}`
}

/** The example a problem message quotes, for the currency: "(for example 254712345678)". */
export function mobileNumberExampleText(currency: string | undefined): string {
  const example = currency ? phoneExampleForCurrency(currency) : null
  return `for example ${(example ?? (EXAMPLES[2] as PhoneExample)).example}`
}
