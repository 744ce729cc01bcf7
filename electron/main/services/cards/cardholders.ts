/**
 * Creating cardholders (spec 2.13): every rule of shared/rules/cardholder.ts is checked again here,
 * the identity document held in memory is sent as Base64, and the holder is kept locally (name,
 * e-mail, the service's reference, date). Field problems come back keyed by field path, e.g.
 * `address.city`, whether main or the service found them.
 */
import type { CardholderDraft, StoredCardholder } from '../../../../shared/domain/cards'
import { cardholderProblems, localDay } from '../../../../shared/rules/cardholder'
import { AppFailure } from '../../../../shared/result'
import type { CardholderRequest } from '../api'
import { ApiFailure } from '../api'
import type { ServiceContext } from '../service-context'
import type { CardholderStore } from './cardholder-store'
import type { IdentityDocuments } from './identity-documents'

export interface FieldIssue {
  path: string
  message: string
}

/** A failure whose details list problems by field path (`{ issues: [{ path, message }] }`). */
export function fieldFailure(code: 'bad_request' | 'rejected', message: string, fields: Record<string, string>) {
  const issues: FieldIssue[] = Object.entries(fields).map(([path, problem]) => ({ path, message: problem }))
  return new AppFailure(code, message, { issues })
}

/** The service's `Invalid request data` details: `{ "address.city": "is required" }`. */
function serviceFieldProblems(details: unknown): Record<string, string> {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return {}
  return Object.fromEntries(
    Object.entries(details as Record<string, unknown>)
      .filter(([, problem]) => typeof problem === 'string')
      .map(([path, problem]) => [path, String(problem)]),
  )
}

function trimmed(draft: CardholderDraft): CardholderDraft {
  const t = (value: string) => value.trim()
  const phone = draft.phone?.trim()
  return {
    first_name: t(draft.first_name),
    last_name: t(draft.last_name),
    email: t(draft.email),
    ...(phone ? { phone } : {}),
    date_of_birth: t(draft.date_of_birth),
    address: {
      street: t(draft.address.street),
      city: t(draft.address.city),
      state: t(draft.address.state),
      country: t(draft.address.country).toUpperCase(),
      zip_code: t(draft.address.zip_code),
    },
    country_identity: { type: draft.country_identity.type, number: t(draft.country_identity.number) },
    identity: {
      type: draft.identity.type,
      number: t(draft.identity.number),
      country: t(draft.identity.country).toUpperCase(),
    },
  }
}

export async function createCardholder(
  context: ServiceContext,
  store: CardholderStore,
  documents: IdentityDocuments,
  input: { draft: CardholderDraft; identityToken: string },
): Promise<StoredCardholder> {
  const draft = trimmed(input.draft)
  const problems = cardholderProblems(draft, localDay(context.now()))
  if (Object.keys(problems).length > 0) {
    throw fieldFailure('bad_request', 'Some fields of the cardholder need attention.', problems)
  }
  const image = documents.base64Of(input.identityToken)
  const body: CardholderRequest = {
    first_name: draft.first_name,
    last_name: draft.last_name,
    email: draft.email,
    ...(draft.phone ? { phone: draft.phone } : {}),
    date_of_birth: draft.date_of_birth,
    address: draft.address,
    country_identity: draft.country_identity,
    identity: { ...draft.identity, image },
  }
  const { api } = await context.apiFor()
  let answer
  try {
    answer = await api.cards.createCardholder(body)
  } catch (error) {
    if (error instanceof ApiFailure && error.code === 'rejected') {
      const fields = serviceFieldProblems(error.details)
      if (Object.keys(fields).length > 0) {
        throw fieldFailure('rejected', `The payments service refused some fields: ${error.message}.`, fields)
      }
    }
    if (error instanceof ApiFailure && error.ambiguous) {
      throw new AppFailure(
        'outcome_unknown',
        `${error.message} The cardholder may have been created; no card is issued to them until you create them again here.`,
      )
    }
    throw error
  }
  documents.release(input.identityToken)
  const holder: StoredCardholder = {
    reference: answer.reference,
    firstName: answer.first_name || draft.first_name,
    lastName: answer.last_name || draft.last_name,
    email: answer.email || draft.email,
    createdAt: context.now().toISOString(),
  }
  await store.add(holder)
  return holder
}
