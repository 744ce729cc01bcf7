/**
 * What the team database's refusals mean to a caller. The schema raises its own SQLSTATEs (class
 * PT) with a reason in the error's DETAIL and a text written for people (definitions/functions/
 * fail.sql, decision 86): the reason decides the app's code and travels in the failure's details
 * (`{ sqlstate, reason }`, shared/team/refusals.ts), so callers act on it, never on the text. A
 * privilege refusal (42501) is a role the member lacks; a dropped or unreachable connection is
 * `team_offline`, which for a write means it may or may not have been recorded (asking again is
 * safe: every write of the schema answers a repeat as the first).
 */
import { TEAM_REFUSALS, isTeamRefusalReason } from '../../../../shared/team/refusals'
import type { TeamRefusalDetails } from '../../../../shared/team/refusals'
import { AppFailure } from '../../../../shared/result'
import type { ErrorCode } from '../../../../shared/result'

/** By SQLSTATE alone: a refusal without a known reason (a role the member lacks, 42501). */
const TEAM_CODES: Record<string, ErrorCode> = {
  PT400: 'bad_request',
  PT401: 'forbidden',
  PT403: 'forbidden',
  PT404: 'not_found',
  PT409: 'conflict',
  PT412: 'hash_mismatch',
  PT423: 'claim_held',
  '42501': 'forbidden',
}

/** Errors that mean the connection itself is gone or unusable. */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string') {
    if (code.startsWith('08')) return true // connection exception
    if (['57P01', '57P02', '57P03', '53300'].includes(code)) return true // shutdown, crash, starting, too many
    if (
      [
        'ECONNREFUSED',
        'ECONNRESET',
        'ETIMEDOUT',
        'EPIPE',
        'EHOSTUNREACH',
        'ENETUNREACH',
        'ENOTFOUND',
        'EAI_AGAIN',
      ].includes(code)
    )
      return true
  }
  const message = error instanceof Error ? error.message : ''
  return /Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect|Client was closed/i.test(
    message,
  )
}

/** A failure of the team database as the app reports it; `during` names what was being done. */
export function teamFailure(error: unknown, during: string): AppFailure {
  if (error instanceof AppFailure) return error
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  const reason = (error as { detail?: unknown } | null)?.detail
  if (typeof code === 'string' && isTeamRefusalReason(reason) && TEAM_REFUSALS[reason].sqlstate === code) {
    const details: TeamRefusalDetails = { sqlstate: code, reason }
    return new AppFailure(TEAM_REFUSALS[reason].code, message, details)
  }
  if (typeof code === 'string' && TEAM_CODES[code]) {
    const text =
      code === '42501' ? `The team database refused ${during}: your role does not allow it (${message}).` : message
    return new AppFailure(TEAM_CODES[code], text, { sqlstate: code })
  }
  if (typeof code === 'string' && code === '28P01')
    return new AppFailure('forbidden', 'The team database refused the login: wrong user name or password.', {
      sqlstate: code,
    })
  if (typeof code === 'string' && code === '3D000')
    return new AppFailure('not_found', `The team database does not exist (${message}).`, { sqlstate: code })
  if (isConnectionFailure(error))
    return new AppFailure(
      'team_offline',
      `The connection to the team database was lost during ${during}; whether it was recorded is not known. Nothing is sent on it; asking again once connected is safe.`,
    )
  if (/certificate|self[- ]signed|altnames|SSL|TLS/i.test(message))
    return new AppFailure('forbidden', `The team database's certificate was refused: ${message}`)
  return new AppFailure('internal', `The team database failed during ${during}: ${message}`)
}
