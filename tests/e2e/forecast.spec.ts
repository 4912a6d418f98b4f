// The base-fee forecast on the chain page: a fan after the last block of the chart, read by keyboard
// like the rest of the chart, showing what GET baseFeeForecast answers for the block shown.
import { mkdirSync } from 'node:fs'
import type { Page } from '@playwright/test'
import type { BaseFeeForecastBody } from '@/lib/core/contract/schemas'
import { apiGet, expect, test } from './fixtures'

const SHOTS = 'test-results/screenshots'
/** What a horizon says: "Block +3 (1237): p50 1.21 gwei, p90 1.35 gwei, p99 1.52 gwei, bound 1.71 gwei" (or "no protocol bound"). */
const HORIZON_TEXT =
  /^Block \+(\d+) \((\d+)\): p50 [\d.,]+ gwei, p90 [\d.,]+ gwei, p99 [\d.,]+ gwei, (bound [\d.,]+ gwei|no protocol bound)$/

/** The fan as drawn, and the block it was drawn for, read in one go (the page moves on every block). */
const readFan = (page: Page) =>
  page.evaluate(() => {
    const box = (el: Element | null) => el?.getBoundingClientRect()
    const history = box(document.querySelector('[data-testid="history-line"]'))
    return {
      head: Number(document.querySelector('[data-testid="chart-readout"]')?.getAttribute('data-head')),
      historyRight: history ? history.right : Number.NaN,
      points: [...document.querySelectorAll('[data-testid="forecast-point"]')].map((el) => {
        const r = el.getBoundingClientRect()
        return {
          x: r.left + r.width / 2,
          blocks: Number(el.getAttribute('data-blocks')),
          p50: el.getAttribute('data-p50'),
          p90: el.getAttribute('data-p90'),
          p99: el.getAttribute('data-p99'),
          bound: el.getAttribute('data-bound') || null,
        }
      }),
    }
  })

/** The focused element's test id, its spoken value, and the readout, read together. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    const readout = document.querySelector('[data-testid="chart-readout"]')
    return {
      testId: el?.getAttribute('data-testid'),
      valueNow: Number(el?.getAttribute('aria-valuenow')),
      valueText: el?.getAttribute('aria-valuetext') ?? '',
      readout: readout?.textContent ?? '',
      readoutK: Number(readout?.getAttribute('data-forecast')),
      head: Number(readout?.getAttribute('data-head')),
    }
  })

test.describe('base-fee forecast on the chart', () => {
  test('the fan is drawn after the last block: 10 horizons, the API’s numbers for the block shown', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/networks/31337')
    await expect(page.getByTestId('history-line')).toBeVisible()
    await expect(page.getByTestId('forecast-fan')).toBeVisible()
    await expect(page.getByTestId('forecast-p50-line')).toBeVisible()
    await expect(page.getByTestId('forecast-fan').locator('svg polygon[data-band="p90"]')).toHaveCount(1)
    await expect(page.getByTestId('forecast-fan').locator('svg polygon[data-band="p99"]')).toHaveCount(1)
    await expect(page.getByRole('img', { name: /^Base fee forecast for the next 10 blocks/ })).toBeVisible()

    const fan = await readFan(page)
    expect(fan.points.map((p) => p.blocks)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    // right of the history's last block, in block order
    expect(fan.points[0]!.x).toBeGreaterThan(fan.historyRight)
    for (let i = 1; i < fan.points.length; i++) expect(fan.points[i]!.x).toBeGreaterThan(fan.points[i - 1]!.x)
    // chain 31337 enforces no bound: no bound line
    await expect(page.locator('svg [data-line="forecast-bound"]')).toHaveCount(0)

    // the numbers drawn are the endpoint's for the block the chart shows
    let compared = false
    await expect
      .poll(
        async () => {
          const shown = await readFan(page)
          const api = await apiGet<BaseFeeForecastBody>('/networks/31337/baseFeeForecast')
          if (api.block !== shown.head) return false
          expect(api.body.blockNumber).toBe(shown.head)
          expect(shown.points.map(({ blocks, p50, p90, p99, bound }) => ({ blocks, p50, p90, p99, bound }))).toEqual(api.body.horizons)
          return (compared = true)
        },
        { message: 'the chart and the API never spoke of the same block', timeout: 30_000 },
      )
      .toBe(true)
    expect(compared).toBe(true)

    mkdirSync(SHOTS, { recursive: true })
    const file = `${SHOTS}/chart-forecast.png`
    await page.getByTestId('forecast-fan').locator('xpath=ancestor::figure').screenshot({ path: file })
    await testInfo.attach('chart-forecast', { path: file, contentType: 'image/png' })
  })

  test('its horizons are reachable by keyboard, each with a label, after the chart’s blocks', async ({ page }) => {
    await page.goto('/networks/31337')
    await expect(page.getByTestId('forecast-fan')).toBeVisible()
    // Tab from the chart's block slider reaches the forecast next
    await page.getByTestId('chart-slider').focus()
    await page.keyboard.press('Tab')
    const first = await focused(page)
    expect(first.testId).toBe('forecast-slider')
    await expect(page.getByTestId('forecast-slider')).toHaveAttribute('aria-label', /forecast/i)
    await expect(page.getByTestId('forecast-slider')).toHaveAttribute('aria-valuemin', '1')
    await expect(page.getByTestId('forecast-slider')).toHaveAttribute('aria-valuemax', '10')

    // focus picks the next block; each arrow press the next horizon, spoken and shown the same
    for (let k = 1; k <= 10; k++) {
      if (k > 1) await page.keyboard.press('ArrowRight')
      await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-forecast', String(k))
      const now = await focused(page)
      expect(now.valueNow).toBe(k)
      const match = HORIZON_TEXT.exec(now.valueText)
      expect(match, now.valueText).not.toBeNull()
      expect(Number(match![1])).toBe(k)
      expect(Number(match![2])).toBe(now.head + k)
      // the chain has no enforced bound
      expect(match![3]).toBe('no protocol bound')
      expect(now.readout).toBe(now.valueText)
      await expect(page.getByTestId('forecast-crosshair')).toBeVisible()
    }
    await page.keyboard.press('ArrowRight')
    await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-forecast', '10')
    await page.keyboard.press('Home')
    await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-forecast', '1')
    await page.keyboard.press('End')
    await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-forecast', '10')
    // leaving the forecast clears its readout
    await page.keyboard.press('Tab')
    await expect(page.getByTestId('chart-readout')).not.toHaveAttribute('data-forecast', /./)
  })

  test('a chain that enforces a bound draws it dashed and says it', async ({ page }) => {
    // 31338 is served with Ethereum's enforced bounds (global-setup.ts)
    await page.goto('/networks/31338')
    await expect(page.getByTestId('forecast-fan')).toBeVisible()
    const bound = page.locator('svg [data-line="forecast-bound"]')
    await expect(bound).toHaveCount(1)
    await expect(bound).toHaveAttribute('stroke-dasharray', /\d/)
    const fan = await readFan(page)
    expect(fan.points.every((p) => p.bound !== null)).toBe(true)
    await page.getByTestId('forecast-slider').focus()
    await page.keyboard.press('End')
    await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-forecast', '10')
    const now = await focused(page)
    expect(HORIZON_TEXT.exec(now.valueText)?.[3], now.valueText).toMatch(/^bound [\d.,]+ gwei$/)
    await expect(page.getByTestId('legend-forecast')).toContainText('protocol bound dashed')
  })
})
