import { apiGet, expect, test } from './fixtures'
import type { SuggestedGasFees } from '@/lib/core/contract/schemas'

test('the overview lists every configured chain from one multi-chain call and links to its view', async ({ page }) => {
  const calls: string[] = []
  page.on('request', (r) => {
    const { pathname } = new URL(r.url())
    if (pathname.endsWith('/suggestedGasFees')) calls.push(pathname)
  })
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gas fees now')
  // the chains of tests/e2e/global-setup.ts: 31337, 31338, 31342, 31343, Base (8453) and the flashblocks chain (130)
  await expect(page.getByTestId('chain-list').locator('li')).toHaveCount(6)
  await expect(page.getByTestId('chain-8453')).toContainText('Base')
  await expect(page.getByTestId('chain-130')).toContainText('Unichain')
  await expect(page.getByTestId('chain-31337')).toContainText('Anvil')
  await expect(page.getByTestId('chain-31338')).toContainText('31338')
  await expect(page.getByTestId('chain-31342')).toContainText('31342')

  const live = page.getByTestId('chain-31337')
  await expect(live.getByTestId('medium-max-fee')).toBeVisible()
  await expect(page.getByTestId('chain-31338').getByTestId('medium-max-fee')).toBeVisible()
  // the dead node's chain says so instead of showing numbers
  await expect(page.getByTestId('chain-31342').locator('[role="alert"][data-status="503"]')).toBeVisible()

  const shownFee = await live.getByTestId('medium-max-fee').getAttribute('data-value')
  const api = await apiGet<SuggestedGasFees>('/networks/31337/suggestedGasFees')
  expect(shownFee).toMatch(/^\d+(\.\d+)?$/)
  expect(api.body.medium.suggestedMaxFeePerGas).toMatch(/^\d+(\.\d+)?$/)
  // the cards came from GET /v1/suggestedGasFees (once, or again a block later), never one call per chain
  expect(calls.length).toBeGreaterThan(0)
  expect(calls.every((c) => c === '/v1/suggestedGasFees')).toBe(true)

  await live.getByRole('link').click()
  await expect(page).toHaveURL(/\/networks\/31337$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anvil')
})

test("a card whose refresh stops answering says its numbers are not updating, in the chain view's words", async ({ page }) => {
  await page.goto('/')
  const card = page.getByTestId('chain-31337')
  await expect(card.getByTestId('medium-max-fee')).toBeVisible()
  await expect(card.getByTestId('card-state')).not.toContainText('not updating')
  // from now on every refresh hangs: no answer and no error, only time passing
  await page.route('**/v1/suggestedGasFees**', () => {})
  // three block intervals, 10 s at least, and a margin
  await expect(card.getByTestId('card-state')).toContainText('not updating', { timeout: 30_000 })
})
