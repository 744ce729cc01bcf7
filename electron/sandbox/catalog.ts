/**
 * Static reference data: banks, mobile money operators, ZA availability, and the test accounts
 * whose outcome is fixed (documented in docs/sandbox.md).
 */

export interface BankEntry {
  name: string
  slug: string
  code: string
  country: 'NG' | 'KE' | 'ZA'
}

export interface OperatorEntry {
  name: string
  slug: string
  code: string
  country: 'KE' | 'GH'
  min: number
  max: number
}

export interface AvailabilityEntry {
  name: string
  slug: string
  code: string
  nibss_bank_code: string | null
  country: 'ZA'
  status: 'Available' | 'Delayed' | 'Unavailable'
}

const bank =
  (country: BankEntry['country']) =>
  (code: string, name: string, slug: string): BankEntry => ({ name, slug, code, country })
const ng = bank('NG')
const ke = bank('KE')
const za = bank('ZA')

/**
 * The banks of the service's list (spec 2.1), with their real names and codes (NIBSS codes in
 * Nigeria, CBK codes in Kenya). In test mode only 044, 033 and 058 pay (spec 1). The app bundles
 * the NG and KE part of this list for offline use (shared/banks/bank-list.json, written from here
 * by `npm run bank-list`), and matches the bank names people type in sheets against it.
 */
export const BANKS: readonly BankEntry[] = [
  ng('044', 'Access Bank', 'access'),
  ng('023', 'Citibank Nigeria', 'citibank'),
  ng('050', 'Ecobank Nigeria', 'ecobank'),
  ng('070', 'Fidelity Bank', 'fidelity'),
  ng('011', 'First Bank of Nigeria', 'firstbank'),
  ng('214', 'First City Monument Bank', 'fcmb'),
  ng('00103', 'Globus Bank', 'globus-bank'),
  ng('058', 'Guaranty Trust Bank', 'gtbank'),
  ng('030', 'Heritage Bank', 'heritage'),
  ng('301', 'Jaiz Bank', 'jaiz'),
  ng('082', 'Keystone Bank', 'keystone'),
  ng('50211', 'Kuda Bank', 'kuda'),
  ng('50515', 'Moniepoint MFB', 'moniepoint'),
  ng('999992', 'OPay', 'opay'),
  ng('999991', 'PalmPay', 'palmpay'),
  ng('076', 'Polaris Bank', 'polaris'),
  ng('101', 'Providus Bank', 'providus'),
  ng('221', 'Stanbic IBTC Bank', 'stanbic-ibtc'),
  ng('068', 'Standard Chartered Bank Nigeria', 'standard-chartered-ng'),
  ng('232', 'Sterling Bank', 'sterling'),
  ng('100', 'SunTrust Bank', 'suntrust'),
  ng('102', 'Titan Trust Bank', 'titan-trust'),
  ng('032', 'Union Bank of Nigeria', 'unionbank'),
  ng('033', 'United Bank for Africa', 'uba'),
  ng('215', 'Unity Bank', 'unity'),
  ng('035', 'Wema Bank', 'wema'),
  ng('057', 'Zenith Bank', 'zenith'),
  ke('01', 'KCB Bank Kenya', 'kcb'),
  ke('02', 'Standard Chartered Bank Kenya', 'standard-chartered-ke'),
  ke('03', 'Absa Bank Kenya', 'absa-ke'),
  ke('07', 'NCBA Bank Kenya', 'ncba'),
  ke('10', 'Prime Bank', 'prime-bank-ke'),
  ke('11', 'Co-operative Bank of Kenya', 'co-op-bank'),
  ke('12', 'National Bank of Kenya', 'national-bank-ke'),
  ke('19', 'Bank of Africa Kenya', 'boa-ke'),
  ke('31', 'Stanbic Bank Kenya', 'stanbic-ke'),
  ke('57', 'I&M Bank', 'im-bank'),
  ke('63', 'Diamond Trust Bank Kenya', 'dtb-ke'),
  ke('66', 'Sidian Bank', 'sidian'),
  ke('68', 'Equity Bank Kenya', 'equity-ke'),
  ke('70', 'Family Bank', 'family-bank'),
  ke('72', 'Gulf African Bank', 'gulf-african'),
  za('632005', 'Absa Bank', 'absa-za'),
  za('470010', 'Capitec Bank', 'capitec'),
  za('250655', 'First National Bank', 'fnb'),
  za('198765', 'Nedbank', 'nedbank'),
  za('051001', 'Standard Bank', 'standard-bank-za'),
  za('679000', 'Discovery Bank', 'discovery-bank'),
  za('888000', 'TymeBank', 'tymebank'),
]

export const MOBILE_MONEY_OPERATORS: readonly OperatorEntry[] = [
  { name: 'M-Pesa', slug: 'safaricom-ke', code: 'MPESA', country: 'KE', min: 10, max: 150000 },
  { name: 'Airtel Money Kenya', slug: 'airtel-ke', code: 'AIRTELKE', country: 'KE', min: 10, max: 70000 },
  { name: 'MTN Mobile Money', slug: 'mtn-gh', code: 'MTN', country: 'GH', min: 1, max: 5000 },
  { name: 'Vodafone Cash', slug: 'vodafone-gh', code: 'VODAFONE', country: 'GH', min: 1, max: 5000 },
  { name: 'AirtelTigo Money', slug: 'airteltigo-gh', code: 'AIRTELTIGO', country: 'GH', min: 1, max: 3000 },
]

/** ZA networks by payout type; one of each status so the app's handling of all three is visible. */
export const ZA_AVAILABILITY: Readonly<Record<'bank_account' | 'mobile_money', readonly AvailabilityEntry[]>> = {
  bank_account: [
    { name: 'Absa Bank', slug: 'absa-za', code: '632005', nibss_bank_code: null, country: 'ZA', status: 'Available' },
    {
      name: 'Capitec Bank',
      slug: 'capitec',
      code: '470010',
      nibss_bank_code: null,
      country: 'ZA',
      status: 'Available',
    },
    {
      name: 'First National Bank',
      slug: 'fnb',
      code: '250655',
      nibss_bank_code: null,
      country: 'ZA',
      status: 'Delayed',
    },
    { name: 'Nedbank', slug: 'nedbank', code: '198765', nibss_bank_code: null, country: 'ZA', status: 'Available' },
    {
      name: 'Standard Bank',
      slug: 'standard-bank-za',
      code: '051001',
      nibss_bank_code: null,
      country: 'ZA',
      status: 'Unavailable',
    },
  ],
  mobile_money: [
    {
      name: 'Vodacom M-Pesa',
      slug: 'vodacom-za',
      code: 'VODACOM',
      nibss_bank_code: null,
      country: 'ZA',
      status: 'Available',
    },
    { name: 'MTN MoMo', slug: 'mtn-za', code: 'MTNZA', nibss_bank_code: null, country: 'ZA', status: 'Delayed' },
    {
      name: 'Telkom Pay',
      slug: 'telkom-za',
      code: 'TELKOM',
      nibss_bank_code: null,
      country: 'ZA',
      status: 'Unavailable',
    },
  ],
}

/** Payout currencies and the country whose banks / operators serve them. */
export const PAYOUT_CURRENCIES = ['NGN', 'KES', 'GHS', 'ZAR'] as const
export type PayoutCurrency = (typeof PAYOUT_CURRENCIES)[number]

export const CURRENCY_COUNTRY: Record<PayoutCurrency, 'NG' | 'KE' | 'GH' | 'ZA'> = {
  NGN: 'NG',
  KES: 'KE',
  GHS: 'GH',
  ZAR: 'ZA',
}

export const banksOf = (country: string): BankEntry[] => BANKS.filter((b) => b.country === country)
export const operatorsOf = (country: string): OperatorEntry[] =>
  MOBILE_MONEY_OPERATORS.filter((o) => o.country === country)

/** Bank codes that the spec says succeed in test mode. */
export const SUCCESS_BANK_CODES: ReadonlySet<string> = new Set(['044', '033', '058'])

/**
 * Account and mobile numbers whose payouts fail, with the reason shown in the payout's message.
 * They fail whatever the bank code.
 */
export const FAILING_ACCOUNTS: Readonly<Record<string, string>> = {
  '0000000000': 'Invalid bank account number',
  '9999999999': 'Beneficiary account is dormant',
  '254700000000': 'Invalid mobile money account',
  '233200000000': 'Invalid mobile money account',
}

/** Reason given to payouts to real (non-test) bank codes: in test mode only 044/033/058 pay. */
export const NON_TEST_BANK_REASON = 'Bank is not available in test mode, use bank code 044, 033 or 058'

/** Account / phone numbers that resolve to nothing. */
export const UNRESOLVABLE_ACCOUNTS: ReadonlySet<string> = new Set(['0000000000', '1234567890', '233000000000'])

const FIRST_NAMES = [
  'Adaeze',
  'Tunde',
  'Wanjiku',
  'Kofi',
  'Amara',
  'Chinedu',
  'Njeri',
  'Ama',
  'Thabo',
  'Zanele',
  'Emeka',
  'Akosua',
]
const LAST_NAMES = [
  'Okafor',
  'Adeyemi',
  'Kamau',
  'Mensah',
  'Nwosu',
  'Otieno',
  'Boateng',
  'Dlamini',
  'Eze',
  'Asante',
  'Mwangi',
  'Nkosi',
]

/**
 * Test accounts with a documented holder (docs/sandbox.md): the accounts of the templates' example
 * rows (scripts/make-templates.ts), so a clean sheet shows clean name checks. Any bank code.
 */
export const NAMED_TEST_ACCOUNTS: ReadonlyArray<{ account: string; name: string; country: 'NG' | 'KE' }> = [
  { account: '0690000031', name: 'ADAEZE OKAFOR', country: 'NG' },
  { account: '0690000032', name: 'TUNDE ADEYEMI', country: 'NG' },
  { account: '0690000033', name: 'CHINEDU NWOSU', country: 'NG' },
  { account: '0690000034', name: 'NGOZI EZE', country: 'NG' },
  { account: '0110000000001', name: 'WANJIKU KAMAU', country: 'KE' },
  { account: '0110000000002', name: 'OTIENO MWANGI', country: 'KE' },
]
const NAMED = new Map(NAMED_TEST_ACCOUNTS.map((entry) => [entry.account, entry.name]))

/**
 * The holder's name of an account: a documented test account's own, else a stable name derived from
 * the number (same number, same name, any seed).
 */
export function accountNameFor(accountNumber: string): string {
  const named = NAMED.get(accountNumber)
  if (named) return named
  let hash = 2166136261
  for (const char of accountNumber) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0
  const first = FIRST_NAMES[hash % FIRST_NAMES.length] ?? 'Test'
  const last = LAST_NAMES[(hash >>> 8) % LAST_NAMES.length] ?? 'Account'
  return `${first} ${last}`.toUpperCase()
}
