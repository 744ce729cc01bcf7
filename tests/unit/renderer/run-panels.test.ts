/**
 * The open run's panels as the store follows them (decision 171): a read asked now (the run's
 * stage changed) is shown at once, and an older read answering after it is dropped, so a review
 * never offers to acknowledge the names of a read made before the last ones came back.
 */
import { describe, expect, it } from 'vitest'
import type { RunPanels } from '../../../shared/bulk/run-panels'
import { useRunPanels } from '../../../renderer/src/stores/run-panels'

describe('the panels followed', () => {
  it('shows the read asked now, and drops an older one that answers after it', async () => {
    const answers: Array<(panels: RunPanels) => void> = []
    const held = useRunPanels(() => new Promise<RunPanels | null>((resolve) => answers.push(resolve)))
    held.follow('run-1', 20, null)
    const older = { read: 'before the last names' } as unknown as RunPanels
    const newer = { read: 'after the move to review' } as unknown as RunPanels
    held.changed() // a row event: read 1 under way
    const now = held.now() // the run moved to review: read 2, now
    answers[1]!(newer)
    await now
    expect(held.panels.value).toBe(newer)
    answers[0]!(older)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(held.panels.value).toBe(newer)
  })

  it('a run opened again drops a read asked before, and a change told during it is read for the run open', async () => {
    const answers: Array<(panels: RunPanels) => void> = []
    const held = useRunPanels(() => new Promise<RunPanels | null>((resolve) => answers.push(resolve)))
    held.follow('run-1', 20, null)
    held.changed() // read 1 under way
    const opened = { read: 'with the run opened again' } as unknown as RunPanels
    held.follow('run-1', 20, opened)
    held.changed() // told while read 1 is under way: one more read after it
    answers[0]!({ read: 'asked before the open' } as unknown as RunPanels)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(held.panels.value).toBe(opened)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(answers).toHaveLength(2)
    const latest = { read: 'after the change' } as unknown as RunPanels
    answers[1]!(latest)
    await held.settled()
    expect(held.panels.value).toBe(latest)
  })
})
