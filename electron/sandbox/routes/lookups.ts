/** Lookups (spec 4.1): banks, mobile money operators, account resolution, ZA availability. */
import { banksOf, operatorsOf, UNRESOLVABLE_ACCOUNTS, ZA_AVAILABILITY } from '../catalog'
import { rejected, success, invalidData } from '../replies'
import type { Route } from '../routing'
import { FieldErrors, requireObjectBody } from '../validation'

/** Countries may be given as country codes (spec samples) or as their currencies. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { NGN: 'NG', KES: 'KE', GHS: 'GH', ZAR: 'ZA' }
const toCountry = (value: string): string => COUNTRY_ALIASES[value.toUpperCase()] ?? value.toUpperCase()

export const lookupRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/merchant/api/v1/misc/banks',
    handler: (request) => {
      const country = request.query.get('countryCode') ?? 'NG'
      if (!['NG', 'KE', 'ZA'].includes(country)) throw invalidData({ countryCode: 'must be one of: NG, KE, ZA' })
      return success('Banks retrieved successfully', banksOf(country))
    },
  },
  {
    method: 'GET',
    pattern: '/merchant/api/v1/misc/mobile-money',
    handler: (request) => {
      const country = request.query.get('countryCode') ?? 'KE'
      if (!['KE', 'GH'].includes(country)) throw invalidData({ countryCode: 'must be one of: KE, GH' })
      return success('Mobile money operators retrieved successfully', operatorsOf(country))
    },
  },
  {
    method: 'POST',
    pattern: '/merchant/api/v1/misc/banks/resolve',
    handler: (request, context) => {
      const body = requireObjectBody(request.body)
      const errors = new FieldErrors()
      const bankCode = errors.string(body, 'bank', 'bank')
      const account = errors.string(body, 'account', 'account', {
        pattern: /^\d{6,20}$/,
        patternText: 'must be 6 to 20 digits',
      })
      const currency = errors.string(body, 'currency', 'currency')
      const country = currency === undefined ? undefined : toCountry(currency)
      if (country !== undefined && country !== 'NG' && country !== 'KE') {
        errors.add('currency', 'bank resolution is available for Nigeria and Kenya only')
      }
      const bank = country && bankCode ? banksOf(country).find((b) => b.code === bankCode) : undefined
      if (country && bankCode && !bank && !errors.has('currency'))
        errors.add('bank', `unknown bank code for ${country}`)
      errors.throwIfAny()
      if (!bank || !account) throw invalidData(errors.details)
      if (UNRESOLVABLE_ACCOUNTS.has(account)) throw rejected('Unable to resolve bank account')
      return success('Bank account resolved successfully', {
        bank_name: bank.name,
        bank_code: bank.code,
        account_number: account,
        account_name: context.state.accountNameOf(account),
      })
    },
  },
  {
    method: 'POST',
    pattern: '/merchant/api/v1/misc/mobile-money/resolve',
    handler: (request, context) => {
      const body = requireObjectBody(request.body)
      const errors = new FieldErrors()
      const code = errors.string(body, 'mobileMoneyCode', 'mobileMoneyCode')
      const phone = errors.string(body, 'phoneNumber', 'phoneNumber', {
        pattern: /^\+?\d{9,15}$/,
        patternText: 'must be 9 to 15 digits',
      })
      const currency = errors.string(body, 'currency', 'currency')
      if (currency !== undefined && toCountry(currency) !== 'GH') {
        errors.add('currency', 'mobile money resolution is available for Ghana only')
      }
      const operator = code ? operatorsOf('GH').find((o) => o.code === code) : undefined
      if (code && !operator) errors.add('mobileMoneyCode', 'unknown mobile money code for GH')
      errors.throwIfAny()
      if (!operator || !phone) throw invalidData(errors.details)
      const number = phone.replace(/^\+/, '')
      if (UNRESOLVABLE_ACCOUNTS.has(number)) throw rejected('Unable to resolve mobile money account')
      return success('Mobile money account resolved successfully', {
        mobile_money_operator: operator.name,
        mobile_money_code: operator.code,
        phone_number: number,
        account_name: context.state.accountNameOf(number),
      })
    },
  },
  {
    method: 'POST',
    pattern: '/merchant/api/v1/payouts/availability',
    handler: (request) => {
      const body = requireObjectBody(request.body)
      const errors = new FieldErrors()
      const type = errors.oneOf(body, 'type', 'type', ['bank_account', 'mobile_money'] as const)
      const currency = errors.string(body, 'currency', 'currency')
      if (currency !== undefined && currency !== 'ZAR')
        errors.add('currency', 'availability is reported for ZAR payouts only')
      errors.throwIfAny()
      return success('Availability retrieved successfully', ZA_AVAILABILITY[type ?? 'bank_account'])
    },
  },
]
