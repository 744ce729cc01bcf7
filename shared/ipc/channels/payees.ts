/**
 * The payee book (decisions 108, 116, 123): the Payees list with the desk's one search and days,
 * one payee's accounts and payments, the export, and a single payout's tripwires as its form is
 * filled. Main answers from the book of the active profile in its mode: a rehearsal never shows
 * in Live's.
 */
import { z } from 'zod'
import type { ExportResult } from '../../domain/export'
import type { ProfileScope } from '../../domain/journal'
import type { PayeeDetail, PayeesPage } from '../../payees/payee-view'
import type { PaymentTripwires } from '../../payees/tripwires'
import { returns } from '../define'
import { exportFormat } from './exports'
import { payoutBodySchema } from './payouts'

const epochMs = z.number().int().min(0).max(8_640_000_000_000)

/** The search and the days the payee's last payment fell in, as the screen narrows the list. */
export const payeesView = z
  .strictObject({
    search: z.string().max(500),
    from: epochMs.optional(),
    to: epochMs.optional(),
  })
  .refine((view) => view.from === undefined || view.to === undefined || view.from <= view.to, {
    message: 'the start of the date range must not be after its end',
    path: ['to'],
  })

export const payeeChannels = {
  /** One page of the payees that match, newest paid first; `total` counts every match. */
  'payees:list': {
    input: z.strictObject({
      view: payeesView,
      offset: z.number().int().min(0).max(10_000_000),
      limit: z.number().int().min(1).max(200),
    }),
    result: returns<PayeesPage>(),
  },
  /** One payee's accounts and payments; null when the active profile's book does not hold them. */
  'payees:payee': {
    input: z.strictObject({ key: z.string().min(1).max(600) }),
    result: returns<PayeeDetail | null>(),
  },
  /** Every payee that matches the view (not only the page shown), through the save dialog. */
  'payees:export': {
    input: z.strictObject({ format: exportFormat, view: payeesView }),
    result: returns<ExportResult>(),
  },
  /**
   * A single payout's tripwires while its form is filled: the draft's destination (as it will be
   * sent) and the name the service resolved for the account, when known. They warn; nothing is
   * refused because of them.
   */
  'payees:checkPayout': {
    input: z.strictObject({
      destination: payoutBodySchema.shape.destination,
      resolvedName: z.string().max(200).optional(),
    }),
    result: returns<PaymentTripwires | null>(),
  },
} as const

export const payeeEvents = {
  /**
   * A profile's book (in one mode) learnt payments or confirmations new to it: the Payees screen of
   * that profile and mode reads its page again.
   */
  'payees:changed': returns<ProfileScope>(),
} as const
