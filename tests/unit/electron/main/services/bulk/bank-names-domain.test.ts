/**
 * The Banks step through the bulk channels (decision 33), over the simulator: a sheet with bank
 * names stops at the Banks step with each distinct name once, its match and its rows; confirmed
 * choices make the run (its rows carry the codes, the run records the names and the control
 * total); a name left without a choice stays an error naming its candidates; the choices are
 * remembered per profile; the bundled list is used when the service's list cannot be read.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../../../../../electron/sandbox'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createBulkDomain } from '../../../../../../electron/main/services/bulk/bulk-domain'
import type { DomainService } from '../../../../../../electron/main/services/domain-service'
import { openJournal, type Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import type { BulkBankReview } from '../../../../../../shared/domain/bulk'
import type { bulkChannels, BulkImportAnswer } from '../../../../../../shared/ipc/channels/bulk'

const SECRET = 'sk_test_bank_names_0123456789abcdef'
const SHEET = [
  'Name,Bank,Account number,Amount,Email,Narration',
  'Ada Obi,GTBank,0123456789,"1,250.00",ada@example.com,March salary',
  'Bola Ade,GT Bank,0123456790,750,bola@example.com,March salary',
  'Chidi Eze,UBA,0123456791,"₦2,000.00",chidi@example.com,March salary',
  'Dayo Ola,First,0123456792,300,dayo@example.com,March salary',
  'Efe Uko,044,0123456793,200,efe@example.com,March salary',
  'TOTAL,,,"4,500.00",,',
].join('\r\n')

let sandbox: RunningSandbox
let directory: string
let journal: Journal
let profile: string
let offline: boolean
let domain: DomainService<keyof typeof bulkChannels>

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    secretKey: SECRET,
    encryptionKey: '0123456789abcdef0123456789abcdef',
    settleMs: 40,
  })
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'bank-names-domain-'))
  journal = await openJournal(join(directory, 'journal'))
  profile = 'acme'
  offline = false
  const context: ServiceContext = {
    userDataDir: directory,
    log: createRedactingLog(),
    emit: () => undefined,
    profiles: {} as ServiceContext['profiles'],
    apiFor: async (profileId) => ({
      profileId: profileId ?? profile,
      mode: 'test',
      // Offline: a port nothing listens on.
      api: createPaymentsApi(
        createPaymentsClient({ baseUrl: offline ? 'http://127.0.0.1:9' : sandbox.url, secretKey: SECRET }),
      ),
    }),
    journal,
    reconciler: createReconciler(journal),
    desktop: createBridgeDesktop(),
    now: () => new Date(),
  }
  domain = createBulkDomain(context)
  // app-services starts the domains once start-up reconciliation has run.
  domain.start?.()
})
afterEach(async () => {
  await domain.close?.()
  await journal.close()
  await rm(directory, { recursive: true, force: true })
})

async function importSheet(text = SHEET): Promise<BulkImportAnswer> {
  // A dropped file reaches main as its path.
  const path = join(directory, 'march.csv')
  await writeFile(path, text)
  const opened = await domain.handlers['bulk:drop']({ file: { name: 'march.csv', ref: path } })
  const sheet = opened.summary.sheets[0]!
  return domain.handlers['bulk:import']({
    importId: opened.importId,
    sheet: sheet.name,
    headerRow: sheet.headerRow!,
    mapping: [...sheet.mapping!],
    currency: 'NGN',
  })
}

function review(answer: BulkImportAnswer): BulkBankReview {
  if (answer.kind !== 'banks') throw new Error(`expected the Banks step, got ${answer.kind}`)
  return answer.review
}

describe('the Banks step', () => {
  it('shows each distinct bank name once with its match and rows; the choices make the run', async () => {
    const banks = review(await importSheet())
    expect(banks.rows).toBe(5)
    expect(banks.names).toEqual([
      {
        text: 'GTBank',
        key: 'gtbank',
        rows: 2,
        how: 'exact',
        bank: { code: '058', name: 'Guaranty Trust Bank' },
        candidates: [],
      },
      {
        text: 'UBA',
        key: 'uba',
        rows: 1,
        how: 'exact',
        bank: { code: '033', name: 'United Bank for Africa' },
        candidates: [],
      },
      {
        text: 'First',
        key: 'first',
        rows: 1,
        how: 'ambiguous',
        candidates: [
          { code: '011', name: 'First Bank of Nigeria' },
          { code: '214', name: 'First City Monument Bank' },
        ],
      },
    ])
    expect(banks.banks).toContainEqual({ code: '221', name: 'Stanbic IBTC Bank' })

    // Accept the two matches; leave "First" undecided.
    const view = await domain.handlers['bulk:confirmBanks']({
      importId: banks.importId,
      choices: [
        { key: 'gtbank', code: '058' },
        { key: 'uba', code: '033' },
      ],
    })
    expect(view.rows).toBe(5)
    expect(view.counts.errors).toBe(1)
    expect(view.imported).toEqual({
      skipped: [{ row: 7, why: 'totals' }],
      control_total: { sheet: '4500.00', computed: '4500.00', match: true },
      bank_names: [
        { from: 'GTBank', code: '058', name: 'Guaranty Trust Bank', how: 'exact', rows: 2 },
        { from: 'UBA', code: '033', name: 'United Bank for Africa', how: 'exact', rows: 1 },
      ],
    })
    const rows = await domain.handlers['bulk:rows']({ runId: view.id })
    expect(rows.map((row) => [row.item.bank_code, row.item.amount, row.errors.map((e) => e.code)])).toEqual([
      ['058', '1250.00', []],
      ['058', '750.00', []],
      ['033', '2000.00', []],
      ['First', '300.00', ['bank_name_ambiguous']],
      ['044', '200.00', []],
    ])
    expect(rows[3]!.errors[0]!.candidates).toHaveLength(2)

    // A second confirmation of the same import answers with the run it made: never a second run.
    const again = await domain.handlers['bulk:confirmBanks']({ importId: banks.importId, choices: [] })
    expect(again.id).toBe(view.id)
    expect(await domain.handlers['bulk:runs'](undefined)).toHaveLength(1)
  })

  it('a bank chosen by hand is recorded as chosen; an unconfirmed match becomes an error again', async () => {
    const banks = review(await importSheet())
    const view = await domain.handlers['bulk:confirmBanks']({
      importId: banks.importId,
      choices: [
        { key: 'first', code: '214' },
        { key: 'gtbank', code: '058' },
      ],
    })
    const rows = await domain.handlers['bulk:rows']({ runId: view.id })
    expect(rows[3]!.item.bank_match).toEqual({
      from: 'First',
      code: '214',
      name: 'First City Monument Bank',
      how: 'chosen',
    })
    expect(rows[2]!.item.bank_code).toBe('UBA')
    expect(rows[2]!.errors.map((error) => [error.code, error.message])).toEqual([
      [
        'bank_name_unconfirmed',
        '"UBA" was matched to United Bank for Africa (033) but not confirmed: type the bank\'s code.',
      ],
    ])
  })

  it('a double click on "Create the run" creates one run', async () => {
    const banks = review(await importSheet())
    const choices = [{ key: 'gtbank', code: '058' }]
    const outcomes = await Promise.allSettled([
      domain.handlers['bulk:confirmBanks']({ importId: banks.importId, choices }),
      domain.handlers['bulk:confirmBanks']({ importId: banks.importId, choices }),
    ])
    // Both clicks are answered with the one run (the second joins the first).
    const ids = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.id : 'rejected'))
    expect(ids[1]).toBe(ids[0])
    expect(await domain.handlers['bulk:runs'](undefined)).toHaveLength(1)
  })

  it('refuses a code that is not in the bank list', async () => {
    const banks = review(await importSheet())
    await expect(
      domain.handlers['bulk:confirmBanks']({ importId: banks.importId, choices: [{ key: 'first', code: '999' }] }),
    ).rejects.toThrow('Bank code 999 is not in the bank list.')
  })

  it('remembers the confirmed choices per profile: proposed as remembered next time, for that profile only', async () => {
    const first = review(await importSheet())
    await domain.handlers['bulk:confirmBanks']({
      importId: first.importId,
      choices: [
        { key: 'gtbank', code: '058' },
        { key: 'uba', code: '033' },
        { key: 'first', code: '011' },
      ],
    })
    const again = review(await importSheet())
    expect(again.names.map((name) => [name.text, name.how, name.bank?.code])).toEqual([
      ['GTBank', 'remembered', '058'],
      ['UBA', 'remembered', '033'],
      ['First', 'remembered', '011'],
    ])
    profile = 'other-profile'
    const other = review(await importSheet())
    expect(other.names.map((name) => [name.text, name.how])).toEqual([
      ['GTBank', 'exact'],
      ['UBA', 'exact'],
      ['First', 'ambiguous'],
    ])
  })

  it('a bank column of something else (hundreds of different names) is refused, pointing at the mapping', async () => {
    const lines = ['Name,Bank,Account number,Amount,Email,Narration']
    for (let index = 0; index < 400; index++)
      lines.push(`Person ${index},Person ${index},${1_000_000_000 + index},100,p${index}@example.com,Pay`)
    await expect(importSheet(lines.join('\n'))).rejects.toThrow(
      'The bank column holds 400 different values that are not bank codes (for example "Person 0"): is the right column mapped to the bank?',
    )
  })

  it('a sheet of codes only goes straight to its run', async () => {
    const answer = await importSheet(
      [
        'Name,Bank,Account number,Amount,Email,Narration',
        'Ada Obi,058,0123456789,100,ada@example.com,Pay',
        'Bola Ade,044,0123456790,100,bola@example.com,Pay',
      ].join('\n'),
    )
    expect(answer.kind).toBe('run')
    if (answer.kind === 'run') expect(answer.run.imported).toEqual({ skipped: [], bank_names: [] })
  })

  it('matches against the bundled list when the service cannot be reached', async () => {
    offline = true
    const banks = review(await importSheet())
    expect(banks.names.map((name) => [name.text, name.how, name.bank?.code])).toEqual([
      ['GTBank', 'exact', '058'],
      ['UBA', 'exact', '033'],
      ['First', 'ambiguous', undefined],
    ])
    expect(banks.banks).toContainEqual({ code: '057', name: 'Zenith Bank' })
  })
})
