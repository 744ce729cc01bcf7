/**
 * The card charge flow in main, step after step (spec 3 and 4.5): encrypt and send, then follow
 * auth_model until the charge is no longer processing, then always verify. Each charge's session
 * lives here (the renderer asks for it on mount) and every step is journaled. An answer that is
 * lost, a 5xx, or a spec 7.3 error "not caused by the request" makes the charge "awaiting
 * verification" (journal state unknown), never failed, and it is verified by reference at once.
 *
 * Size: one charge's whole flow in order (send, each auth step, verification), every step journaled
 * under the one failure policy; read in sequence, a reviewer sees that no answer is ever shown as
 * failed.
 */
import type { z } from 'zod'
import type {
  AuthModel,
  ChargeListItem,
  ChargeSessionView,
  ChargeStage,
  MaskedCard,
} from '../../../../shared/domain/charges'
import { explainChargeMessage } from '../../../../shared/domain/charges'
import type { MovementView } from '../../../../shared/domain/journal'
import type { chargeChannels } from '../../../../shared/ipc/channels/charges'
import type { AppError } from '../../../../shared/result'
import { AppFailure } from '../../../../shared/result'
import {
  AVS_FIELDS,
  avsFieldProblem,
  otpProblem,
  phoneProblem,
  pinProblem,
} from '../../../../shared/rules/cards-charge'
import type { AuthWindowOutcome } from '../../adapters/desktop'
import { THREE_DS_TIMEOUT_MS } from '../../windows/three-ds-outcome'
import type { ChargeAuthorization, ChargeResponse } from '../api'
import type { ApiFailure } from '../api'
import type { PaymentsApi } from '../api'
import { chargeKeyBytes, encryptChargePayload } from '../crypto'
import { InFlight } from '../sending'
import { checkpointHooks, sendMoney } from '../sending'
import type { SendOutcome } from '../sending'
import type { ServiceContext } from '../service-context'
import { prepareCharge } from './charge-request'
import type { ChargeInput } from './charge-request'
import { lastVerified } from './charge-verification'
import { maskTypedIn, outcomeMasked } from './typed-echo'

export type AuthorizeInput = z.infer<(typeof chargeChannels)['charges:authorize']['input']>

interface Session {
  view: ChargeSessionView
  api: PaymentsApi
  transactionReference?: string
  returnUrl: string
  busy: boolean
  /** Resolves when background work (a 3-D Secure window and its verification) is over. */
  background?: Promise<void>
}

const DEFAULT_FIELDS: Readonly<Record<AuthModel, string[]>> = {
  NO_AUTH: [],
  PIN: ['pin'],
  OTP: ['otp'],
  '3DS': [],
  AVS: [...AVS_FIELDS],
  CARD_ENROLL: ['phone'],
}

const STEP_NAMES: Readonly<Record<AuthModel, string>> = {
  NO_AUTH: 'no authorization',
  PIN: 'card PIN',
  OTP: 'one-time password',
  '3DS': '3-D Secure',
  AVS: 'address verification',
  CARD_ENROLL: 'card enrolment (phone number)',
}

const THREE_DS_NOTES: Readonly<Record<AuthWindowOutcome, string>> = {
  returned: '3-D Secure window reached the return address; verifying',
  closed: '3-D Secure window closed by hand: not completed; verifying',
  timed_out: '3-D Secure window timed out after 10 minutes: not completed; verifying',
  failed_to_open: '3-D Secure page could not be opened; verifying',
}

export interface ChargeFlow {
  start(input: ChargeInput): Promise<ChargeSessionView>
  authorize(input: AuthorizeInput): Promise<ChargeSessionView>
  verify(reference: string): Promise<ChargeSessionView>
  sessions(): ChargeSessionView[]
  dismiss(reference: string): boolean
  list(): ChargeListItem[]
  popupReport(reference: string, location: string | null): { ended: boolean }
  /** Waits for background work of every session (tests, quit). */
  settle(): Promise<void>
}

export function createChargeFlow(
  context: ServiceContext,
  options: { threeDsTimeoutMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): ChargeFlow {
  const sessions = new Map<string, Session>()
  const { journal } = context

  const publish = (session: Session): ChargeSessionView => {
    session.view.updatedAt = context.now().toISOString()
    const view = structuredClone(session.view)
    context.emit('charges:changed', view)
    return view
  }

  function sessionOf(reference: string): Session {
    const session = sessions.get(reference)
    if (!session) throw new AppFailure('not_found', `No charge ${reference} is open on this desk.`)
    return session
  }

  function setStage(session: Session, stage: ChargeStage, extra: Partial<ChargeSessionView> = {}): void {
    const { authModel: _model, requiredFields: _fields, threeDsUrl: _url, error: _error, ...rest } = session.view
    session.view = { ...rest, ...extra, stage }
  }

  /** Verifies by reference through the reconciler (which journals it) and shows the result. */
  async function verifyAndShow(session: Session): Promise<void> {
    const reference = session.view.reference
    const before = session.view
    setStage(session, 'verifying', before.explanation ? { explanation: before.explanation } : {})
    let movement: MovementView
    try {
      movement = await context.reconciler.verifyOne(reference)
    } catch (error) {
      context.log.error('Verifying a charge failed', error instanceof Error ? error.message : 'unknown')
      setStage(session, 'awaiting_verification', keep(before))
      return
    }
    const verified = lastVerified(movement)
    const explanationOfFailure =
      verified?.status === 'failed' && verified.paymentAttempts.at(-1)?.message
        ? explainChargeMessage(verified.paymentAttempts.at(-1)?.message ?? '', 'failure')
        : undefined
    if (movement.state === 'success' || movement.state === 'failed') {
      setStage(session, movement.state, {
        ...(verified ? { verified } : {}),
        ...(explanationOfFailure ? { explanation: explanationOfFailure } : keep(before)),
        ...(before.threeDsOutcome ? { threeDsOutcome: before.threeDsOutcome } : {}),
      })
      return
    }
    const note = movement.timeline.at(-1)?.note ?? 'The service could not say yet.'
    setStage(session, 'awaiting_verification', {
      ...keep(before),
      ...(before.threeDsOutcome ? { threeDsOutcome: before.threeDsOutcome } : {}),
      error: { code: 'outcome_unknown', message: note },
    })
  }

  const keep = (view: ChargeSessionView): Partial<ChargeSessionView> =>
    view.explanation ? { explanation: view.explanation } : {}

  /** An answer came: a further step, a 3-D Secure window, or a final status to verify. */
  async function follow(session: Session, answer: ChargeResponse, what: string): Promise<void> {
    const reference = session.view.reference
    session.transactionReference = answer.transaction_reference
    const model = answer.auth_model
    const message = answer.response_message ?? ''
    await journal.append(reference, {
      ...(answer.status === 'processing' ? { state: 'processing' as const } : {}),
      note: `${what}: ${answer.status}${answer.status === 'processing' ? `, next step ${STEP_NAMES[model]}` : ''}${message ? ` (${message})` : ''}`,
      data: {
        status: answer.status,
        auth_model: model,
        transaction_reference: answer.transaction_reference,
        ...(message ? { response_message: message } : {}),
      },
    })
    if (answer.status !== 'processing') {
      if (answer.status === 'failed' && message) session.view.explanation = explainChargeMessage(message, 'failure')
      await verifyAndShow(session)
      return
    }
    if (model === '3DS') {
      const url = answer.authorization?.redirect_url
      if (!url) {
        await journal.append(reference, { note: 'The service asked for 3-D Secure without a page to open; verifying' })
        await verifyAndShow(session)
        return
      }
      setStage(session, 'three_ds', { authModel: '3DS', threeDsUrl: url })
      session.background = runThreeDs(session, url)
      return
    }
    const fields = answer.authorization?.required_fields?.length
      ? answer.authorization.required_fields
      : (DEFAULT_FIELDS[model] ?? [])
    setStage(session, 'authorizing', { authModel: model, requiredFields: [...fields] })
  }

  async function runThreeDs(session: Session, url: string): Promise<void> {
    const reference = session.view.reference
    await journal.append(reference, { note: '3-D Secure window opened for the customer' })
    let outcome: AuthWindowOutcome
    try {
      outcome = await context.desktop.authWindow.open({
        reference,
        url,
        returnUrl: session.returnUrl,
        timeoutMs: options.threeDsTimeoutMs ?? THREE_DS_TIMEOUT_MS,
        mode: session.view.mode,
      })
    } catch (error) {
      context.log.error('The 3-D Secure window failed', error instanceof Error ? error.message : 'unknown')
      outcome = 'failed_to_open'
    }
    await journal.append(reference, { note: THREE_DS_NOTES[outcome] })
    session.view.threeDsOutcome = outcome
    await verifyAndShow(session)
    publish(session)
  }

  /**
   * A request whose answer we do not have, or whose answer says the service already holds this
   * reference: never failed, verified by reference at once.
   */
  async function ambiguous(session: Session, outcome: { reason: string; failure?: ApiFailure }, what: string) {
    const reference = session.view.reference
    await journal.append(reference, {
      state: 'unknown',
      note: `${what}: no clear answer (${outcome.reason}); awaiting verification`,
    })
    session.view.explanation =
      outcome.failure?.code === 'rejected'
        ? explainChargeMessage(outcome.reason, 'error')
        : {
            message: 'No clear answer from the service',
            meaning: outcome.reason,
            next: 'The desk verifies the charge by its reference; the verified result below is what counts. Do not charge again unless it says nothing was charged.',
          }
    await verifyAndShow(session)
  }

  async function exclusive<T>(session: Session, work: () => Promise<T>): Promise<T> {
    if (session.busy) throw new AppFailure('conflict', 'This charge is already being processed: wait for its answer.')
    session.busy = true
    try {
      return await work()
    } finally {
      session.busy = false
    }
  }

  async function start(input: ChargeInput): Promise<ChargeSessionView> {
    if (journal.has(input.reference) || sessions.has(input.reference)) {
      throw new AppFailure(
        'conflict',
        `The reference ${input.reference} was already used by a charge from this desk: a reference is used once. Use a new reference.`,
      )
    }
    const credentials = await context.profiles.credentialsOf()
    if (!credentials.encryptionKey) {
      throw new AppFailure(
        'keys_missing',
        'The active profile has no encryption key: add it in Settings (API configuration tab of the dashboard). Nothing was sent.',
      )
    }
    chargeKeyBytes(credentials.encryptionKey)
    const returnUrlForApp = context.desktop.authWindow.returnUrlFor(input.reference)
    const prepared = prepareCharge(input, context.now(), returnUrlForApp)
    const chargeData = encryptChargePayload(prepared.payload, credentials.encryptionKey)
    const { api, mode, profileId } = await context.apiFor(credentials.profileId)

    const card: MaskedCard = { scheme: prepared.scheme, firstSix: prepared.firstSix, lastFour: prepared.lastFour }
    await journal.record({
      reference: input.reference,
      kind: 'charge',
      profileId,
      mode,
      request: prepared.journalRequest,
    })
    const session: Session = {
      api,
      returnUrl: prepared.returnUrl,
      busy: true,
      view: {
        reference: input.reference,
        profileId,
        mode,
        amount: prepared.amount,
        currency: 'NGN',
        email: input.email.trim(),
        card,
        stage: 'verifying',
        updatedAt: context.now().toISOString(),
      },
    }
    sessions.set(input.reference, session)
    try {
      await journal.append(input.reference, { state: 'sent', note: 'Charge sent (card details encrypted)' })
      const typed = [input.card.cvv.trim(), input.card.pin?.trim() ?? '']
      const outcome = await send(input.reference, () => api.charges.charge(chargeData), typed)
      if (outcome.kind === 'accepted') await follow(session, outcome.answer, 'Charge answered')
      else await afterFailure(session, outcome, 'Charge')
      return publish(session)
    } finally {
      session.busy = false
    }
  }

  /** A charge or authorize request, through the send policy (intent and "sent" are journaled). */
  /** Sends a charge request; what the person typed (`typed`) is masked in all the service says back. */
  async function send<T>(
    reference: string,
    request: () => Promise<T>,
    typed: readonly string[] = [],
  ): Promise<SendOutcome<T>> {
    const outcome = await sendMoney(request, {
      reference,
      note: (text) => journal.append(reference, { note: maskTypedIn(text, typed) }),
      hooks: checkpointHooks(context.checkpoint),
      sleep: options.sleep,
    })
    return outcomeMasked(outcome, typed)
  }

  /** A charge or authorize request that did not get a charge answer, as the send policy reads it. */
  async function afterFailure(
    session: Session,
    outcome: Exclude<SendOutcome<unknown>, { kind: 'accepted' }>,
    what: string,
  ): Promise<void> {
    const reference = session.view.reference
    if (outcome.kind !== 'refused') {
      await ambiguous(session, outcome, what)
      return
    }
    const failure = outcome.failure
    const refusedByService = failure?.code === 'rejected' && !outcome.notTakenYet
    const appError: AppError = {
      code: failure?.code ?? 'rejected',
      message: outcome.reason,
      ...(failure?.details !== undefined && Object.keys(failure.details as object).length
        ? { details: issuesOf(failure.details) }
        : {}),
    }
    if (what === 'Charge') {
      // Refused before anything was charged (spec 7.3: the request itself was wrong), or never
      // taken by the service at all.
      await journal.append(reference, {
        state: 'failed',
        note: refusedByService
          ? `Refused by the service: ${outcome.reason}. Nothing was charged by this request.`
          : `Not taken by the service: ${outcome.reason} Nothing was charged by this request.`,
      })
      const stage: ChargeStage = 'refused'
      setStage(session, stage, {
        ...(refusedByService ? { explanation: explainChargeMessage(outcome.reason, 'error') } : {}),
        error: appError,
      })
      return
    }
    // An authorization refused: the charge exists; show why, then what the service holds now.
    await journal.append(reference, { note: `${what} refused: ${outcome.reason}` })
    if (refusedByService) session.view.explanation = explainChargeMessage(outcome.reason, 'error')
    await verifyAndShow(session)
    if (session.view.stage === 'awaiting_verification' || session.view.stage === 'verifying') {
      session.view.error = appError
    }
  }

  function authorizationOf(session: Session, input: AuthorizeInput): ChargeAuthorization {
    const model = session.view.authModel
    const issues: Array<{ path: string; message: string }> = []
    const check = (path: string, problem: string | null): void => {
      if (problem) issues.push({ path, message: problem })
    }
    let authorization: ChargeAuthorization | undefined
    if (model === 'PIN') {
      check('pin', pinProblem(input.pin ?? '', true))
      authorization = { pin: (input.pin ?? '').trim() }
    } else if (model === 'OTP') {
      check('otp', otpProblem(input.otp ?? ''))
      authorization = { otp: (input.otp ?? '').trim() }
    } else if (model === 'CARD_ENROLL') {
      check('phone', phoneProblem(input.phone ?? ''))
      authorization = { phone: (input.phone ?? '').trim() }
    } else if (model === 'AVS') {
      const avs = input.avs ?? { address: '', city: '', state: '', zip_code: '', country: '' }
      for (const field of AVS_FIELDS) check(`avs.${field}`, avsFieldProblem(field, avs[field]))
      authorization = {
        avs: {
          state: avs.state.trim(),
          city: avs.city.trim(),
          country: avs.country.trim(),
          address: avs.address.trim(),
          zip_code: avs.zip_code.trim(),
        },
      }
    }
    if (!authorization) throw new AppFailure('conflict', 'This charge is not waiting for a step you can enter here.')
    if (issues.length) {
      throw new AppFailure('bad_request', `${issues[0]?.message ?? 'Check the fields.'} Nothing was sent.`, { issues })
    }
    return authorization
  }

  async function authorize(input: AuthorizeInput): Promise<ChargeSessionView> {
    const session = sessionOf(input.reference)
    return exclusive(session, async () => {
      if (session.view.stage !== 'authorizing' || !session.transactionReference) {
        throw new AppFailure('conflict', 'This charge is not waiting for an authorization step.')
      }
      const authorization = authorizationOf(session, input)
      const step = STEP_NAMES[session.view.authModel ?? 'NO_AUTH']
      await journal.append(input.reference, { note: `Authorization sent: ${step}` })
      delete session.view.error
      delete session.view.explanation
      const transaction = session.transactionReference
      const typed = ['pin' in authorization ? authorization.pin : '', 'otp' in authorization ? authorization.otp : '']
      const outcome = await send(
        input.reference,
        () => session.api.charges.authorize(transaction, authorization),
        typed,
      )
      if (outcome.kind === 'accepted') await follow(session, outcome.answer, `Authorization (${step}) answered`)
      else await afterFailure(session, outcome, `Authorization (${step})`)
      return publish(session)
    })
  }

  async function verify(reference: string): Promise<ChargeSessionView> {
    const session = sessions.get(reference)
    if (!session) {
      const movement = journal.get(reference)
      if (!movement || movement.kind !== 'charge')
        throw new AppFailure('not_found', `No charge ${reference} on this desk.`)
      await context.reconciler.verifyOne(reference)
      return sessionFromJournal(reference)
    }
    return exclusive(session, async () => {
      delete session.view.error
      await verifyAndShow(session)
      return publish(session)
    })
  }

  /** A charge of an earlier run shown again (re-query from the list). */
  function sessionFromJournal(reference: string): ChargeSessionView {
    const item = listItemOf(journal.get(reference)!)
    const stage: ChargeStage =
      item.state === 'success' || item.state === 'failed' ? item.state : 'awaiting_verification'
    const reason = item.verified?.paymentAttempts.at(-1)?.message
    return {
      reference,
      profileId: journal.get(reference)!.profileId,
      mode: journal.get(reference)!.profileMode,
      amount: item.amount,
      currency: item.currency,
      email: item.email,
      card: item.card,
      stage,
      ...(item.verified ? { verified: item.verified } : {}),
      ...(reason ? { explanation: explainChargeMessage(reason, 'failure') } : {}),
      updatedAt: item.updatedAt,
    }
  }

  // A second Charge with the same reference while the first is under way (a double click) is that charge.
  const starting = new InFlight<ChargeSessionView>()
  return {
    start: (input) => starting.run(input.reference, () => start(input)),
    authorize,
    verify,
    sessions: () => [...sessions.values()].map((session) => structuredClone(session.view)).reverse(),
    dismiss(reference) {
      const session = sessions.get(reference)
      if (!session || session.busy || session.view.stage === 'three_ds') return false
      return sessions.delete(reference)
    },
    list: () => journal.list({ kind: 'charge' }).map(listItemOf),
    popupReport: (reference, location) => ({ ended: context.desktop.authWindow.popupReport(reference, location) }),
    async settle() {
      await Promise.all([...sessions.values()].map((session) => session.background))
    },
  }
}

function issuesOf(details: unknown): { issues: Array<{ path: string; message: string }> } {
  if (!details || typeof details !== 'object') return { issues: [] }
  return {
    issues: Object.entries(details as Record<string, unknown>).map(([path, message]) => ({
      path,
      message: String(message),
    })),
  }
}

export function listItemOf(movement: MovementView): ChargeListItem {
  const request = movement.request as {
    amount?: string
    currency?: string
    customer?: { email?: string }
    card?: { scheme?: string; first_six?: string; last_four?: string }
  }
  const verified = lastVerified(movement)
  return {
    reference: movement.reference,
    state: movement.state,
    amount: request.amount ?? '',
    currency: request.currency ?? 'NGN',
    email: request.customer?.email ?? '',
    card: {
      scheme: request.card?.scheme ?? '',
      firstSix: request.card?.first_six ?? '',
      lastFour: request.card?.last_four ?? '',
    },
    createdAt: movement.createdAt,
    updatedAt: movement.updatedAt,
    lastNote: movement.timeline.at(-1)?.note ?? '',
    ...(verified ? { verified } : {}),
  }
}
