import { apiGet, expect, readChainView, test } from './fixtures'
import type { SuggestedGasFees } from '@/lib/core/contract/schemas'

test.describe('chain view /networks/31337', () => {
  test('renders the numbers the API answers for the same block', async ({ page }) => {
    await page.goto('/networks/31337')
    await expect(page.getByTestId('block-number')).toBeVisible()
    // the service answers one block's data until the next block: compare when both speak of the same block
    let same: { shown: Awaited<ReturnType<typeof readChainView>>; api: Awaited<ReturnType<typeof apiGet<SuggestedGasFees>>> } | undefined
    await expect
      .poll(
        async () => {
          const shown = await readChainView(page)
          const api = await apiGet<SuggestedGasFees>('/networks/31337/suggestedGasFees')
          if (api.block === shown.block) same = { shown, api }
          return same !== undefined
        },
        { message: 'the page and the API never spoke of the same block', timeout: 30_000 },
      )
      .toBe(true)
    const { shown, api } = same!
    for (const level of ['low', 'medium', 'high'] as const) expect(shown.levels[level]).toEqual(api.body[level])
    expect(shown.estimatedBaseFee).toBe(api.body.estimatedBaseFee)
    expect(shown.networkCongestion).toBe(api.body.networkCongestion)
    expect(shown.baseFeeTrend).toBe(api.body.baseFeeTrend)
    expect(shown.priorityFeeTrend).toBe(api.body.priorityFeeTrend)
    expect(shown.latestPriorityFeeRange).toEqual(api.body.latestPriorityFeeRange)
    expect(shown.historicalPriorityFeeRange).toEqual(api.body.historicalPriorityFeeRange)
    // and what a person reads is the shortened form of the exact value (both read at once: the page
    // moves to the next block's numbers every block)
    const [exact, title, text] = await page
      .getByTestId('medium-max-fee')
      .evaluate((el) => [el.getAttribute('data-value') ?? '', el.getAttribute('title'), el.textContent ?? ''])
    expect(exact).toMatch(/^\d+(\.\d+)?$/)
    expect(title).toBe(`${exact} gwei`)
    const read = text.match(/\d+(\.(\d+))?/)
    expect(read, text).not.toBeNull()
    const decimals = read![2]?.length ?? 0
    expect(Math.abs(Number(read![0]) - Number(exact))).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-12)
  })

  test('updates by itself as blocks arrive', async ({ page }) => {
    await page.goto('/networks/31337')
    await expect(page.getByTestId('block-number')).toBeVisible()
    const first = await readChainView(page)
    await expect.poll(async () => (await readChainView(page)).block, { timeout: 15_000 }).toBeGreaterThan(first.block)
    await expect
      .poll(
        async () => {
          const now = await readChainView(page)
          return (
            now.estimatedBaseFee !== first.estimatedBaseFee ||
            now.levels.medium.suggestedMaxFeePerGas !== first.levels.medium.suggestedMaxFeePerGas
          )
        },
        { timeout: 20_000 },
      )
      .toBe(true)
    await expect(page.getByTestId('live-state')).toHaveText('live')
  })

  test('draws the 500-block history with the p50 and busy threshold lines', async ({ page }) => {
    await page.goto('/networks/31337')
    await expect(page.getByTestId('history-line')).toBeVisible()
    expect((await readChainView(page)).chartPoints).toBe(500)
    await expect(page.locator('svg line[data-line="p50"]')).toHaveCount(1)
    await expect(page.locator('svg line[data-line="busy"]')).toHaveCount(1)
    await expect(page.getByRole('img', { name: /Base fee over the last 500 blocks/ })).toBeVisible()
  })

  test('words congestion consistently with busyThreshold', async ({ page }) => {
    await page.goto('/networks/31337')
    await expect(page.getByTestId('congestion-word')).toBeVisible()
    const { networkCongestion } = await readChainView(page)
    const word = await page.getByTestId('congestion-word').textContent()
    if (networkCongestion > 0.9) expect(word).toBe('busy')
    else expect(word).not.toBe('busy')
  })

  test('has landmarks and a heading order', async ({ page }) => {
    await page.goto('/networks/31337')
    await expect(page.getByRole('main')).toBeVisible()
    await expect(page.getByRole('banner')).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    const levels = await page.locator('main h1, main h2, main h3').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])))
    expect(levels[0]).toBe(1)
    // each heading at most one level deeper than the one before it (the first, checked above, is 1)
    let previous = 1
    for (const level of levels) {
      expect(level - previous).toBeLessThanOrEqual(1)
      previous = level
    }
  })
})

test.describe('errors', () => {
  test('an unknown chain shows the error page', async ({ page }) => {
    for (const id of ['6001', 'abc']) {
      const res = await page.goto(`/networks/${id}`)
      expect(res?.status()).toBe(404)
      await expect(page.getByTestId('unknown-chain')).toBeVisible()
      await expect(page.getByRole('link', { name: 'See the supported chains' })).toBeVisible()
    }
  })

  test('a chain whose node is down shows a 503 state, not numbers', async ({ page }) => {
    await page.goto('/networks/31342')
    const alert = page.locator('[role="alert"][data-status="503"]')
    await expect(alert).toBeVisible()
    await expect(alert).toContainText('No fee data right now')
    await expect(page.getByTestId('medium-max-fee')).toHaveCount(0)
  })

  test('other paths show the not-found page', async ({ page }) => {
    const res = await page.goto('/no/such/page')
    expect(res?.status()).toBe(404)
    await expect(page.getByTestId('not-found')).toBeVisible()
  })
})

test.describe('without credentials', () => {
  test('the browser gets 401 with a Basic challenge', async ({ browser, baseURL }) => {
    // contexts made in a test inherit the config's options: drop the credentials explicitly
    const context = await browser.newContext({ baseURL, httpCredentials: undefined })
    const page = await context.newPage()
    for (const path of ['/networks/31337', '/']) {
      const response = page.waitForResponse((r) => new URL(r.url()).pathname === path)
      // headless Chromium cannot show the login prompt, so the navigation ends in ERR_INVALID_AUTH_CREDENTIALS
      await page.goto(path).catch(() => null)
      const res = await response
      expect(res.status()).toBe(401)
      expect(res.headers()['www-authenticate']).toBe('Basic realm="gas-api", charset="UTF-8"')
    }
    await context.close()
  })
})
