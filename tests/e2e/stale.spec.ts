import { expect, test } from './fixtures'

const setMode = (mode: string) => fetch(`${process.env.E2E_FLAKY_NODE}/__mode/${mode}`, { method: 'POST' })

test('a failing node is shown plainly: stale, then live again when it recovers', async ({ page }) => {
  await setMode('ok')
  await page.goto('/networks/31343')
  await expect(page.getByTestId('live-state')).toHaveText('live')
  const block = await page.getByTestId('block-number').textContent()

  await setMode('hang')
  await expect(page.getByTestId('live-state')).toHaveText('stale', { timeout: 15_000 })
  await expect(page.getByRole('status')).toContainText('node is failing')
  await expect(page.getByTestId('block-number')).toHaveText(block!)

  await setMode('ok')
  await expect(page.getByTestId('live-state')).toHaveText('live', { timeout: 15_000 })
})
