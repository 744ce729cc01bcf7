/**
 * The card services against the simulator over real HTTP: cardholders with their identity
 * document, issuing (both brands, balance exhausted, an ambiguous answer verified and never sent
 * twice), pending -> active by polling, the list's filters and paging, details, reveal and copy.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CardIssue, StoredCardholder } from '../../../../../../shared/domain/cards'
import { AppFailure } from '../../../../../../shared/result'
import { createCardDomain } from '../../../../../../electron/main/services/cards/cards-domain'
import { pollUntil } from '../../../../sandbox/helpers'
import { PNG_1x1, holderDraft, startHarness } from './harness'
import type { Harness } from './harness'

let h: Harness
let domain: ReturnType<typeof createCardDomain>

beforeEach(async () => {
  h = await startHarness()
  domain = createCardDomain(h.context, { pollIntervalMs: 40, maxPollIntervalMs: 100, clipboardClearMs: 150 })
})
afterEach(async () => {
  await domain.close?.()
  await h.close()
})

/** A file dropped on the form: written where a person's file would be, handed over by reference. */
async function dropped(name: string, bytes: Buffer): Promise<{ name: string; ref: string }> {
  const ref = join(h.userDataDir, name)
  await writeFile(ref, bytes)
  return { name, ref }
}

async function failureOf(run: () => unknown): Promise<AppFailure> {
  try {
    await run()
  } catch (error) {
    if (error instanceof AppFailure) return error
    throw error
  }
  throw new Error('expected a failure')
}

const issues = async (): Promise<CardIssue[]> => await domain.handlers['cards:issues'](undefined)

async function createHolder(): Promise<StoredCardholder> {
  const preview = await domain.handlers['cards:dropIdentityFile'](await dropped('passport.png', PNG_1x1))
  return domain.handlers['cards:createCardholder']({ draft: holderDraft, identityToken: preview.token })
}

async function cardAtService(reference: string) {
  return (await h.t.api('GET', `/api/v1/cards/${reference}`)).body
}

async function untilActive(reference: string): Promise<CardIssue> {
  return pollUntil(async () => {
    const issue = (await issues()).find((i) => i.reference === reference)
    return issue?.state === 'success' ? issue : undefined
  })
}

describe('cardholders', () => {
  it('creates a cardholder with an identity image opened from a file, and keeps only name, e-mail, reference, date', async () => {
    const path = join(h.userDataDir, 'passport.png')
    await writeFile(path, PNG_1x1)
    h.desktop.queueOpenPath(path)
    const preview = await domain.handlers['cards:chooseIdentityFile'](undefined)
    expect(preview).toMatchObject({ name: 'passport.png', kind: 'png', bytes: PNG_1x1.length })
    expect(preview?.previewUrl).toBe(`data:image/png;base64,${PNG_1x1.toString('base64')}`)
    expect(h.desktop.dialogRequests.at(-1)).toMatchObject({ title: 'Choose the identity document' })

    const holder = await domain.handlers['cards:createCardholder']({
      draft: holderDraft,
      identityToken: preview!.token,
    })
    expect(holder).toMatchObject({ firstName: 'Amara', lastName: 'Nwosu', email: 'amara@example.com' })
    expect(holder.reference).toMatch(/^CHR_[a-z0-9]{16}$/)
    expect(await domain.handlers['cards:holders'](undefined)).toEqual([holder])

    const file = await readFile(join(h.userDataDir, 'cardholders.json'), 'utf8')
    expect(JSON.parse(file)).toEqual({ version: 1, cardholders: [holder] })
    for (const secret of ['22212345678', 'A01234567', PNG_1x1.toString('base64').slice(0, 40)]) {
      expect(file).not.toContain(secret)
    }
    // The document was sent and then let go: it cannot be sent a second time by its token.
    const again = await failureOf(() =>
      domain.handlers['cards:createCardholder']({ draft: holderDraft, identityToken: preview!.token }),
    )
    expect(again.details).toEqual({
      issues: [{ path: 'identity.image', message: 'Choose the identity document again.' }],
    })
  })

  it('cancelling the dialog picks nothing', async () => {
    h.desktop.queueOpenPath(null)
    expect(await domain.handlers['cards:chooseIdentityFile'](undefined)).toBeNull()
  })

  it('refuses a file that is not JPEG, PNG or PDF by its content, and one above 5 MB, naming the file', async () => {
    const gif = await dropped('id.png', Buffer.from('GIF89a....'))
    const fake = await failureOf(() => domain.handlers['cards:dropIdentityFile'](gif))
    expect(fake.code).toBe('bad_request')
    expect(fake.message).toBe('id.png: The file is not a JPEG, PNG or PDF (checked by its content, not its name).')

    const big = Buffer.alloc(5 * 1024 * 1024 + 1)
    PNG_1x1.copy(big)
    const path = join(h.userDataDir, 'big.png')
    await writeFile(path, big)
    h.desktop.queueOpenPath(path)
    const tooBig = await failureOf(() => domain.handlers['cards:chooseIdentityFile'](undefined))
    expect(tooBig.message).toMatch(/^big\.png: The file is larger than the 5 MB limit/)
    const droppedBig = await failureOf(() => domain.handlers['cards:dropIdentityFile']({ name: 'big.png', ref: path }))
    expect(droppedBig.message).toMatch(/^big\.png: The file is larger than the 5 MB limit/)

    const pdf = await domain.handlers['cards:dropIdentityFile'](
      await dropped('licence.pdf', Buffer.from('%PDF-1.4\n%\xe2\xe3\n1 0 obj\n<<>>\nendobj\n%%EOF\n')),
    )
    expect(pdf).toMatchObject({ kind: 'pdf', previewUrl: null })
    // The same PDF cut short: refused, naming the file and why.
    const cut = await failureOf(async () =>
      domain.handlers['cards:dropIdentityFile'](
        await dropped('licence.pdf', Buffer.from('%PDF-1.4\n%\xe2\xe3\n1 0 obj\n')),
      ),
    )
    expect(cut.message).toBe(
      'licence.pdf: The file starts as a PDF but is cut short (it has no end): save or scan the document again.',
    )
  })

  it('answers field by field: the rules of shared before sending, the service after', async () => {
    const preview = await domain.handlers['cards:dropIdentityFile'](await dropped('p.png', PNG_1x1))
    const local = await failureOf(() =>
      domain.handlers['cards:createCardholder']({
        draft: { ...holderDraft, date_of_birth: '2015-06-01', country_identity: { type: 'bvn', number: '123' } },
        identityToken: preview.token,
      }),
    )
    expect(local.code).toBe('bad_request')
    expect(local.details).toEqual({
      issues: [
        { path: 'date_of_birth', message: 'The cardholder must be at least 18 years old.' },
        { path: 'country_identity.number', message: 'A BVN is exactly 11 digits.' },
      ],
    })
    expect((await h.t.api('GET', '/api/v1/cards')).status).toBe(200)

    // The simulator refuses a field (the city is taken out on the way): shown on that field.
    h.rewrite.body = (path, body) =>
      path === '/api/v1/cardholders' ? { ...body, address: { ...(body.address as object), city: undefined } } : body
    const remote = await failureOf(() =>
      domain.handlers['cards:createCardholder']({ draft: holderDraft, identityToken: preview.token }),
    )
    expect(remote.code).toBe('rejected')
    expect(remote.message).toBe('The payments service refused some fields: Invalid request data.')
    expect(remote.details).toEqual({ issues: [{ path: 'address.city', message: expect.any(String) }] })
    expect(await domain.handlers['cards:holders'](undefined)).toEqual([])
  })
})

describe('issuing', () => {
  it('journals the reference before sending, shows pending, then active after polling, with a notification', async () => {
    const holder = await createHolder()
    const issue = await domain.handlers['cards:issue']({ holderReference: holder.reference })
    expect(issue).toMatchObject({
      holderReference: holder.reference,
      holderName: 'Amara Nwosu',
      brand: 'mastercard',
      state: 'processing',
      cardStatus: 'pending',
      canSendAgain: false,
    })
    const movement = h.journal.get(issue.reference)!
    expect(movement.kind).toBe('card_issue')
    expect(movement.request).toEqual({
      currency: 'USD',
      card_holder_reference: holder.reference,
      reference: issue.reference,
      type: 'virtual',
      brand: 'mastercard',
    })
    expect(movement.timeline.map((e) => e.state)).toEqual(['recorded', 'sent', 'processing'])

    const active = await untilActive(issue.reference)
    expect(active.cardStatus).toBe('active')
    await pollUntil(async () => (h.desktop.notices.length > 0 ? true : undefined))
    expect((await cardAtService(issue.reference)).data.status).toBe('active')
    expect(h.desktop.notices).toEqual([
      {
        kind: 'success',
        title: 'Virtual card active',
        body: expect.stringMatching(/^The mastercard card for Amara Nwosu is active \(ending \d{4}\)\.$/),
      },
    ])
    const changes = h.events.filter((e) => e.event === 'cards:issueChanged').map((e) => (e.payload as CardIssue).state)
    expect(changes).toEqual(['sent', 'processing', 'success'])
  })

  it('issues visa when chosen', async () => {
    const holder = await createHolder()
    const issue = await domain.handlers['cards:issue']({ holderReference: holder.reference, brand: 'visa' })
    expect(issue.brand).toBe('visa')
    const card = (await cardAtService(issue.reference)).data
    expect(card.brand).toBe('visa')
    expect(card.first_six).toMatch(/^4/)
  })

  it('an exhausted issuing balance is refused in plain words, journaled as failed, nothing spent', async () => {
    const holder = await createHolder()
    await h.t.api('POST', '/__sandbox/balances', { currency: 'issuing_USD', amount: '0.50' })
    const refused = await failureOf(() => domain.handlers['cards:issue']({ holderReference: holder.reference }))
    expect(refused.code).toBe('rejected')
    expect(refused.message).toBe(
      'The USD issuing balance is too low to issue a card. Fund the issuing balance with the payments service, then issue the card again. Nothing was spent.',
    )
    const [issue] = await issues()
    expect(issue).toMatchObject({ state: 'failed', note: refused.message })
    expect((await h.t.api('GET', '/__sandbox/balances')).body.data.issuing_USD).toBe('0.50')
  })

  it('an answer lost after the service accepted is verified by reference and never sent twice', async () => {
    const holder = await createHolder()
    await h.t.api('POST', '/__sandbox/faults', { path: '/api/v1/cards', kind: 'after-accept', status: 503 })
    const issue = await domain.handlers['cards:issue']({ holderReference: holder.reference })
    // Found by its reference: still pending, or already active when the check came after the
    // simulator's 150 ms (a loaded machine); never failed, never to be sent again.
    const found = issue.state === 'success' ? 'success' : 'processing'
    expect(issue).toMatchObject({ state: found, canSendAgain: false })
    const movement = h.journal.get(issue.reference)!
    expect(movement.lastVerification).toBe('found')
    expect(movement.timeline.map((e) => e.state ?? e.verification)).toEqual(['recorded', 'sent', 'unknown', found])
    await untilActive(issue.reference)
    const list = (await h.t.api('GET', '/api/v1/cards')).body.data
    expect(list.paging.total_items).toBe(1)
    expect((await h.t.api('GET', '/__sandbox/balances')).body.data.issuing_USD).toBe('49.00')
    // Sending again is refused: the card exists.
    expect((await issues())[0]?.canSendAgain).toBe(false)
    const resent = await domain.handlers['cards:sendAgain']({ reference: issue.reference })
    expect(resent.state).toBe('success')
    expect((await h.t.api('GET', '/api/v1/cards')).body.data.paging.total_items).toBe(1)
  })

  it('an answer lost before the service accepted is found absent; sending again reuses the reference', async () => {
    const holder = await createHolder()
    await h.t.api('POST', '/__sandbox/faults', { path: '/api/v1/cards', kind: 'before-accept', status: 502 })
    const issue = await domain.handlers['cards:issue']({ holderReference: holder.reference })
    expect(issue).toMatchObject({ state: 'unknown', canSendAgain: true })
    expect(issue.note).toBe('The payments service has no card with this reference: it was not issued.')
    expect((await h.t.api('GET', '/api/v1/cards')).body.data.paging.total_items).toBe(0)

    const resent = await domain.handlers['cards:sendAgain']({ reference: issue.reference })
    expect(resent).toMatchObject({ reference: issue.reference, state: 'processing' })
    await untilActive(issue.reference)
    expect((await h.t.api('GET', '/api/v1/cards')).body.data.paging.total_items).toBe(1)
    expect(h.journal.list({ kind: 'card_issue' })).toHaveLength(1)
  })

  it('a duplicate-reference answer is verified by reference, never failed', async () => {
    const holder = await createHolder()
    await h.t.api('POST', '/__sandbox/faults', { path: '/api/v1/cards', kind: 'duplicate' })
    const issue = await domain.handlers['cards:issue']({ holderReference: holder.reference })
    expect(issue).toMatchObject({ state: 'processing', canSendAgain: false })
    expect(h.journal.get(issue.reference)!.timeline.map((e) => e.note)).toContain('Duplicate card reference')
    await untilActive(issue.reference)
    expect((await h.t.api('GET', '/api/v1/cards')).body.data.paging.total_items).toBe(1)
  })

  it('a 429 is waited out and the same request sent again, same reference, one card', async () => {
    const holder = await createHolder()
    await h.t.api('POST', '/__sandbox/faults', { path: '/api/v1/cards', kind: 'rate-limit', count: 1 })
    const issue = await domain.handlers['cards:issue']({ holderReference: holder.reference })
    expect(issue.state).toBe('processing')
    expect(h.journal.get(issue.reference)!.timeline.map((e) => e.note)).toContain(
      'Not taken (the service is limiting requests); the same request goes again in 1 s, with the same reference.',
    )
    expect((await h.t.api('GET', '/api/v1/cards')).body.data.paging.total_items).toBe(1)
  })

  it('a double click on Issue issues one card', async () => {
    const holder = await createHolder()
    const [a, b] = await Promise.all([
      domain.handlers['cards:issue']({ holderReference: holder.reference }),
      domain.handlers['cards:issue']({ holderReference: holder.reference }),
    ])
    expect(b.reference).toBe(a.reference)
    expect(h.journal.list({ kind: 'card_issue' })).toHaveLength(1)
    expect((await h.t.api('GET', '/api/v1/cards')).body.data.paging.total_items).toBe(1)
  })

  it('start-up reconciliation finds a card sent before a crash, and polling resumes to active', async () => {
    const holder = await createHolder()
    const issue = await domain.handlers['cards:issue']({ holderReference: holder.reference })
    await domain.close?.()
    // A second run of the app over the same journal: the card is still pending in the journal.
    const firstRun = h.journal.get(issue.reference)!
    expect(firstRun.state).toBe('processing')
    domain = createCardDomain(h.context, { pollIntervalMs: 40, maxPollIntervalMs: 100 })
    domain.start?.()
    expect((await untilActive(issue.reference)).cardStatus).toBe('active')

    // A card whose intent was journaled but never sent is found absent at start.
    await h.journal.record({
      reference: 'card_never_sent',
      kind: 'card_issue',
      profileId: 'sandbox',
      mode: 'sandbox',
      request: {
        currency: 'USD',
        card_holder_reference: holder.reference,
        reference: 'card_never_sent',
        type: 'virtual',
        brand: 'visa',
      },
    })
    const report = await h.context.reconciler.run()
    expect(report.items).toEqual([
      expect.objectContaining({ reference: 'card_never_sent', after: 'unknown', verification: 'absent' }),
    ])
  })

  it('refuses to issue to a cardholder this desk does not know', async () => {
    const refused = await failureOf(() => domain.handlers['cards:issue']({ holderReference: 'CHR_unknown' }))
    expect(refused).toMatchObject({ code: 'not_found', message: 'Choose a cardholder created on this desk.' })
    expect(h.journal.list()).toEqual([])
  })
})

describe('the card list', () => {
  it('pages by the paging block at the page boundaries, and filters by status, type and dates', async () => {
    // Cards stay pending long enough to be counted as pending.
    await domain.close?.()
    await h.close()
    h = await startHarness(3000)
    domain = createCardDomain(h.context, { pollIntervalMs: 40, maxPollIntervalMs: 100 })
    const holder = await createHolder()
    const references: string[] = []
    for (let i = 0; i < 5; i++) {
      references.push((await domain.handlers['cards:issue']({ holderReference: holder.reference })).reference)
    }
    const list = (query: Partial<Parameters<(typeof domain.handlers)['cards:list']>[0]>) =>
      domain.handlers['cards:list']({ page: 1, limit: 2, ...query })

    const first = await list({})
    expect(first.paging).toEqual({ totalItems: 5, pageSize: 2, current: 1, count: 3 })
    expect(first.cards.map((c) => c.reference)).toEqual([references[4], references[3]])
    expect((await list({ page: 2 })).cards.map((c) => c.reference)).toEqual([references[2], references[1]])
    const last = await list({ page: 3 })
    expect(last.cards.map((c) => c.reference)).toEqual([references[0]])
    expect(last.paging).toEqual({ totalItems: 5, pageSize: 2, current: 3, count: 3 })
    expect((await list({ page: 4 })).cards).toEqual([])
    expect((await list({ limit: 5 })).paging.count).toBe(1)

    const card = first.cards[0]!
    expect(card).toMatchObject({ holderName: 'Amara Nwosu', brand: 'mastercard', type: 'virtual', currency: 'USD' })
    expect(card.firstSix).toMatch(/^\d{6}$/)
    expect(card.lastFour).toMatch(/^\d{4}$/)
    expect(JSON.stringify(first)).not.toMatch(/"pan"|"cvv"/)

    expect((await list({ status: 'pending', limit: 10 })).paging.totalItems).toBe(5)
    expect((await list({ status: 'active' })).paging.totalItems).toBe(0)
    for (const reference of references) await untilActive(reference)
    expect((await list({ status: 'active' })).paging.totalItems).toBe(5)
    expect((await list({ status: 'pending' })).paging).toEqual({ totalItems: 0, pageSize: 2, current: 1, count: 0 })
    expect((await list({ type: 'virtual' })).paging.totalItems).toBe(5)
    expect((await list({ type: 'physical' })).paging.totalItems).toBe(0)

    const today = new Date().toISOString().slice(0, 10)
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    expect((await list({ startDate: today, endDate: today })).paging.totalItems).toBe(5)
    expect((await list({ startDate: tomorrow })).paging.totalItems).toBe(0)
    expect((await list({ endDate: yesterday })).paging.totalItems).toBe(0)
  })
})

describe('card details, reveal and copy', () => {
  async function activeCard(): Promise<string> {
    const holder = await createHolder()
    const issue = await domain.handlers['cards:issue']({ holderReference: holder.reference, brand: 'visa' })
    await untilActive(issue.reference)
    return issue.reference
  }

  it('details carry holder, billing, brand, expiry, balance, status and dates, but no PAN or CVV', async () => {
    const reference = await activeCard()
    const service = (await cardAtService(reference)).data
    const details = await domain.handlers['cards:details']({ reference })
    expect(details).toEqual({
      reference,
      type: 'virtual',
      currency: 'USD',
      firstSix: service.first_six,
      lastFour: service.last_four,
      status: 'active',
      holderName: 'Amara Nwosu',
      brand: 'visa',
      expiryMonth: service.expiry_month,
      expiryYear: service.expiry_year,
      dateCreated: service.date_created,
      balance: '0.00',
      billing: {
        city: 'Lagos',
        state: 'Lagos',
        country: 'NG',
        address1: '12 Marina Road',
        address2: '',
        zipCode: '101001',
      },
      holder: {
        firstName: 'Amara',
        lastName: 'Nwosu',
        email: 'amara@example.com',
        phoneNumber: '+2348012345678',
        address: { city: 'Lagos', state: 'Lagos', street: '12 Marina Road', country: 'NG', zipCode: '101001' },
      },
    })
    expect(JSON.stringify(details)).not.toContain(service.pan)
  })

  it('reveal answers PAN and CVV; the log masks the PAN from then on', async () => {
    const reference = await activeCard()
    const service = (await cardAtService(reference)).data
    const revealed = await domain.handlers['cards:reveal']({ reference })
    expect(revealed).toEqual({ reference, pan: service.pan, cvv: service.cvv, hideAfterMs: 30_000 })
    h.context.log.error(`a library echoed ${service.pan}`, new Error(`card ${service.pan}`))
    expect(h.logged.join('\n')).not.toContain(service.pan)
    expect(h.logged.join('\n')).toContain('[redacted]')
  })

  it('a revealed PAN and CVV are held by main only until the drawer hides them', async () => {
    const reference = await activeCard()
    const { pan, cvv } = (await cardAtService(reference)).data
    const registry = h.context.log.secrets
    const before = registry.size
    await domain.handlers['cards:reveal']({ reference })
    expect(registry.has(pan) && registry.has(cvv)).toBe(true)
    // While held, even the CVV (three digits: no pattern can tell it) is masked where it stands alone.
    h.context.log.error(`the service echoed cvv ${cvv}`)
    expect(h.logged.at(-1)).toBe('the service echoed cvv [redacted]')
    // Revealed again (a second click) and hidden once: nothing is left behind.
    await domain.handlers['cards:reveal']({ reference })
    expect(await domain.handlers['cards:hide']({ reference })).toBeNull()
    expect(registry.has(pan) || registry.has(cvv)).toBe(false)
    expect(registry.size).toBe(before)
    h.context.log.error(`later: code ${cvv}`)
    expect(h.logged.at(-1)).toBe(`later: code ${cvv}`)
    // The card number itself stays masked by its pattern.
    h.context.log.error(`later: card ${pan}`)
    expect(h.logged.at(-1)).toBe('later: card [redacted]')
  })

  it('a drawer that never says "hide" leaves nothing held once the number may no longer be shown', async () => {
    const reference = await activeCard()
    const { pan } = (await cardAtService(reference)).data
    const shortLived = createCardDomain(h.context, { visibleMs: 100, clipboardClearMs: 100 })
    expect((await shortLived.handlers['cards:reveal']({ reference })).hideAfterMs).toBe(100)
    expect(h.context.log.secrets.has(pan)).toBe(true)
    await pollUntil(async () => (h.context.log.secrets.has(pan) ? undefined : true))
    await shortLived.handlers['cards:copyNumber']({ reference })
    expect(h.context.log.secrets.has(pan)).toBe(true)
    await pollUntil(async () => ((await h.desktop.clipboard.readText()) === '' ? true : undefined))
    await pollUntil(async () => (h.context.log.secrets.has(pan) ? undefined : true))
    await shortLived.close?.()
  })

  it('copy puts the number on the clipboard through main and clears it later, unless the user copied something else', async () => {
    const reference = await activeCard()
    const { pan } = (await cardAtService(reference)).data
    expect(await domain.handlers['cards:copyNumber']({ reference })).toEqual({
      clearAfterMs: 150,
      keptOutOfHistory: false,
    })
    expect(await h.desktop.clipboard.readText()).toBe(pan)
    await pollUntil(async () => ((await h.desktop.clipboard.readText()) === '' ? true : undefined))

    await domain.handlers['cards:copyNumber']({ reference })
    h.desktop.clipboard.writeText('something the user copied')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await h.desktop.clipboard.readText()).toBe('something the user copied')
  })

  it('closing the app takes a copied number off the clipboard at once', async () => {
    const reference = await activeCard()
    await domain.handlers['cards:copyNumber']({ reference })
    await domain.close?.()
    expect(await h.desktop.clipboard.readText()).toBe('')
  })

  it('the journal of every issued card holds no PAN and no CVV', async () => {
    const reference = await activeCard()
    const { pan, cvv } = (await cardAtService(reference)).data
    const file = await readFile(join(h.userDataDir, 'journal', 'journal.jsonl'), 'utf8')
    expect(file).toContain(reference)
    expect(file).not.toContain(pan)
    expect(file).not.toMatch(new RegExp(`"cvv"|[^0-9a-f]${cvv}[^0-9a-f]`))
  })
})

describe('export of the card list', () => {
  it('writes every card matching the filters, all pages, with first six and last four only', async () => {
    const holder = await createHolder()
    for (let i = 0; i < 3; i++) await domain.handlers['cards:issue']({ holderReference: holder.reference })
    const path = join(h.userDataDir, 'cards.csv')
    h.desktop.queueSavePath(path)
    const result = await domain.handlers['cards:export']({ format: 'csv', filters: { type: 'virtual' } })
    expect(result).toEqual({ path, rows: 3 })
    const csv = await readFile(path, 'utf8')
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
    // The date's zone is in its header, and each date is ISO 8601 with its zone.
    expect(lines[0]).toBe('Reference,Cardholder,Brand,Type,Currency,First six,Last four,Status,Created (UTC)')
    expect(lines).toHaveLength(4)
    for (const line of lines.slice(1)) expect(line).toMatch(/,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/)
    const { data } = (await h.t.api('GET', '/api/v1/cards?limit=100')).body
    for (const { reference } of data.data as Array<{ reference: string }>) {
      const card = (await cardAtService(reference)).data
      expect(csv).toContain(reference)
      expect(csv).not.toContain(card.pan)
    }
    h.desktop.queueSavePath(join(h.userDataDir, 'none.csv'))
    expect(await domain.handlers['cards:export']({ format: 'csv', filters: { type: 'physical' } })).toMatchObject({
      rows: 0,
    })
  })
})
