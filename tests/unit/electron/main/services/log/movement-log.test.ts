import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import { withMovementLog } from '../../../../../../electron/main/services/log/movement-log'

async function journalWithLog() {
  const lines: string[] = []
  const journal = withMovementLog(await openJournal(mkdtempSync(join(tmpdir(), 'payout-desk-journal-'))), {
    info: (message) => lines.push(message),
  })
  return { journal, lines }
}

const intent = (reference: string) => ({
  reference,
  kind: 'payout' as const,
  profileId: 'sandbox',
  mode: 'sandbox' as const,
  request: { reference, amount: '1500.00', account_number: '0123456789' },
})

describe('money movement log', () => {
  it('logs one line per movement and per state change, with its reference and state only', async () => {
    const { journal, lines } = await journalWithLog()
    await journal.record(intent('PD-1'))
    await journal.append('PD-1', { state: 'sent', note: 'sent' })
    await journal.append('PD-1', { note: 'a note without a state change' })
    await journal.append('PD-1', { state: 'success', note: 'paid', data: { fee: '10.00' } })
    expect(lines).toEqual([
      'movement payout PD-1 recorded (sandbox profile)',
      'movement payout PD-1 sent (sandbox profile)',
      'movement payout PD-1 success (sandbox profile)',
    ])
    expect(lines.join('\n')).not.toContain('0123456789')
    expect(journal.get('PD-1')?.state).toBe('success')
    await journal.close()
  })

  it('logs each state a batch set, in order', async () => {
    const { journal, lines } = await journalWithLog()
    await journal.appendMany([
      { intent: intent('PD-2') },
      { reference: 'PD-2', event: { state: 'sent', note: 'sent' } },
      { intent: intent('PD-3') },
    ])
    expect(lines).toEqual([
      'movement payout PD-2 recorded (sandbox profile)',
      'movement payout PD-2 sent (sandbox profile)',
      'movement payout PD-3 recorded (sandbox profile)',
    ])
    expect(journal.status.records).toBe(3)
    await journal.close()
  })

  it('logs nothing when the journal refuses a record', async () => {
    const { journal, lines } = await journalWithLog()
    await journal.record(intent('PD-4'))
    await expect(journal.record(intent('PD-4'))).rejects.toThrow()
    expect(lines).toHaveLength(1)
    await journal.close()
  })
})
