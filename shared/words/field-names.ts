/**
 * Field names as people say them: "Customer name", not `customer_name`. The one mapping of the
 * app's and the service's field keys (spec sections 2 and 4, the bulk sheet's fields, the payout
 * form's draft) to words, for messages, issue lists and documents. A dotted path names the last
 * part in words, with its group when that helps ("address.city" -> "City (address)").
 */

const FIELD_WORDS: Readonly<Record<string, string>> = {
  // Payouts (spec 2.6) and the payout form.
  reference: 'Reference',
  amount: 'Amount',
  currency: 'Currency',
  narration: 'Narration',
  type: 'Type',
  bank: 'Bank',
  bank_code: 'Bank',
  bankCode: 'Bank',
  account: 'Account number',
  account_number: 'Account number',
  accountNumber: 'Account number',
  account_name: 'Account name',
  accountName: 'Account name',
  operator: 'Operator',
  mobile_number: 'Mobile number',
  mobileNumber: 'Mobile number',
  customer: 'Customer',
  customer_name: 'Customer name',
  customerName: 'Customer name',
  customer_email: 'Customer e-mail',
  customerEmail: 'Customer e-mail',
  // Who a payment is for (decision 108): an employee number, a vendor code.
  payee_id: 'Payee ID',
  name: 'Name',
  email: 'E-mail',
  metadata: 'Metadata',
  trace_id: 'Trace ID',
  date_created: 'Created',
  date_completed: 'Completed',
  fee: 'Fee',
  status: 'Status',
  message: 'Message',
  // Bulk payouts (spec 2.9).
  batch_reference: 'Batch reference',
  merchant_bears_cost: 'Who pays the fees',
  merchantBearsCost: 'Who pays the fees',
  description: 'Description',
  payouts: 'Payouts',
  // Cardholders and cards (spec 2.13 to 2.16).
  first_name: 'First name',
  last_name: 'Last name',
  phone: 'Phone',
  phone_number: 'Phone',
  date_of_birth: 'Date of birth',
  address: 'Address',
  street: 'Street',
  city: 'City',
  state: 'State',
  country: 'Country',
  zip_code: 'Postal code',
  country_identity: 'Country identity (BVN)',
  identity: 'Identity document',
  number: 'Number',
  image: 'Document image',
  card_holder_reference: 'Cardholder',
  holderReference: 'Cardholder',
  brand: 'Brand',
  // Charges (spec 2.17, 4.5).
  card: 'Card',
  expiry_month: 'Expiry month',
  expiry_year: 'Expiry year',
  redirect_url: 'Return address',
  pin: 'PIN',
  otp: 'One-time password',
  avs: 'Address check',
  // Settings.
  baseUrl: 'Base URL',
  payerName: 'Payer name',
}

/** Groups whose name helps to tell two fields apart (both an address and a document have a country). */
const GROUP_WORDS: Readonly<Record<string, string>> = {
  address: 'address',
  billing: 'billing address',
  identity: 'identity document',
  country_identity: 'BVN',
  bank_account: 'bank account',
  mobile_money: 'mobile money',
  customer: 'customer',
  avs: 'address check',
}

/** "some_field_name" or "someFieldName" -> "Some field name", for a key the mapping does not know. */
function wordsOf(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
  return spaced === '' ? key : spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

/**
 * The words for a field key or path: `customer_name` -> "Customer name", `address.city` ->
 * "City (address)", `destination.bank_account.account` -> "Account number (bank account)",
 * `["payouts", 3, "amount"]` -> "Amount (payout 4)".
 */
export function fieldLabel(path: string | ReadonlyArray<string | number>): string {
  const parts = (typeof path === 'string' ? path.split('.') : path.map(String)).filter((part) => part !== '')
  if (parts.length === 0) return ''
  let position: number | null = null
  while (parts.length > 1 && /^\d+$/.test(parts[parts.length - 1] as string)) parts.pop()
  const last = parts[parts.length - 1] as string
  const index = parts.findIndex((part) => /^\d+$/.test(part))
  if (index > 0) position = Number(parts[index]) + 1
  const words = FIELD_WORDS[last] ?? wordsOf(last)
  const group = [...parts.slice(0, -1)].reverse().find((part) => GROUP_WORDS[part] !== undefined)
  const extras = [
    ...(group && group !== last ? [GROUP_WORDS[group] as string] : []),
    ...(position !== null ? [`${singular(parts[index - 1] as string)} ${position}`] : []),
  ]
  return extras.length > 0 ? `${words} (${extras.join(', ')})` : words
}

function singular(collection: string): string {
  const word = (FIELD_WORDS[collection] ?? wordsOf(collection)).toLowerCase()
  return word.endsWith('s') ? word.slice(0, -1) : word
}
