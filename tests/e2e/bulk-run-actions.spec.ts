/**
 * The runs list offers what main allows (decision 096). A run at its name checks with records of
 * it in the journal (a copy of a team run written again under its id, whose batch was journaled
 * before) was offered Delete by its stage alone, and main refused the delete. The list now shows
 * main's `can`: Archive, not Delete; a delete asked anyway is refused, and nothing is lost.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'

test.setTimeout(120_000)

test('a run with journal records is offered Archive, not Delete, though its stage says nothing was sent', async ({
  app,
}) => {
  const { page, running, userDataDir } = app
  const sheet = join(userDataDir, 'copy.csv')
  await writeFile(
    sheet,
    [
      'reference,amount,bank_code,account_number,customer_name,customer_email,narration',
      'COPY-0001,100.00,044,0123456789,Ada Obi,ada@example.com,Test',
      'COPY-0002,200.00,033,0123456790,Bola Ade,bola@example.com,Test',
    ].join('\n'),
  )
  await page.getByTestId('nav-bulk').click()
  running.desktop.queueOpenPath(sheet)
  await page.getByTestId('bulk-open-file').click()
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  await page.getByTestId('bulk-import-confirm').click()
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  const runId = (await page.getByTestId('bulk-run-id').textContent())!
  // Its name checks done, nothing in the journal: main would delete it.
  await expect
    .poll(async () => (await running.services.handlers['bulk:run']({ runId })).can.delete, { timeout: 30_000 })
    .toBe(true)
  const run = await running.services.handlers['bulk:run']({ runId })
  expect(run.stage).toBe('resolving')

  // A batch of this run id in the journal, as a team run's earlier copy leaves it.
  await running.services.journal.record({
    reference: `${runId}-B0001`,
    kind: 'bulk_batch',
    profileId: run.profileId,
    mode: run.mode,
    runId,
    request: { batch_reference: `${runId}-B0001` },
  })

  // The screen asks main for the runs again, as it does when it opens.
  await page.reload()
  await page.getByTestId('nav-bulk').click()
  const row = page.getByTestId(`bulk-run-${runId}`)
  await expect(row).toBeVisible()
  await expect(page.getByTestId(`bulk-run-state-${runId}`)).toHaveText('Name checks')
  await expect(page.getByTestId(`bulk-delete-${runId}`)).toHaveCount(0)
  await expect(page.getByTestId(`bulk-archive-${runId}`)).toHaveText('Archive')

  // Main refuses the delete the screen no longer offers, and the run stays.
  await expect(running.services.handlers['bulk:delete']({ runId })).rejects.toThrow('cannot be deleted, only archived')
  await expect(row).toBeVisible()

  // What it offers, main does: archived, hidden, kept.
  await page.getByTestId(`bulk-archive-${runId}`).click()
  await expect(row).toHaveCount(0)
  await page.getByTestId('bulk-show-archived').click()
  await expect(row).toContainText('Archived')
  await expect(page.getByTestId(`bulk-archive-${runId}`)).toHaveText('Unarchive')
  await expect(page.getByTestId('result-error')).toHaveCount(0)
})
