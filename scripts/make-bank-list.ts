/**
 * Writes shared/banks/bank-list.json: the NG and KE banks of the service's list as the simulator
 * serves them (electron/sandbox/catalog.ts), bundled with the app for when the lookups API cannot be
 * reached (and for the check-sheet command). Run: npm run bank-list. A unit test fails when the
 * file and the catalogue differ.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bankListJson } from '../electron/sandbox/bank-list-json'

const file = join(__dirname, '..', 'shared', 'banks', 'bank-list.json')
writeFileSync(file, bankListJson())
console.log(`bank list written to ${file}`)
