/** The bundled bank list's file content (shared/banks/bank-list.json), made from the catalogue. */
import { BANKS } from './catalog'

export function bankListJson(): string {
  const of = (country: 'NG' | 'KE') => BANKS.filter((bank) => bank.country === country)
  return `${JSON.stringify({ NG: of('NG'), KE: of('KE') }, null, 2)}\n`
}
