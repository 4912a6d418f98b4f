import type { Page, Request } from '@playwright/test'
import { apiGet, expect, readChainView, test } from './fixtures'
import type { AccuracyReportBody, SuggestedGasFees } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'

const CHAIN = '/networks/31337'
const FEE_ENDPOINTS = /\/networks\/\d+\/(suggestedGasFees|busyThreshold|baseFeePercentile|baseFeeHistory|baseFeeForecast)$/
const STREAM = /\/networks\/\d+\/stream$/

/** The fee-endpoint and stream requests a page makes. */
function watchRequests(page: Page) {
  const seen = { fees: [] as string[], streams: 0 }
  page.on('request', (r: Request) => {
    const path = new URL(r.url()).pathname
    if (FEE_ENDPOINTS.test(path)) seen.fees.push(path)
    if (STREAM.test(path)) seen.streams++
  })
  return seen
}

const shownBlock = async (page: Page) => Number(await page.getByTestId('block-number').textContent())

test.describe('live updates', () => {
  test('while the stream is up the page updates with no request to the fee endpoints', async ({ page }) => {
    const seen = watchRequests(page)
    await page.goto(CHAIN)
    await expect(page.getByTestId('feed-source')).toHaveAttribute('data-value', 'stream')
    const first = await shownBlock(page)
    // several new blocks arrive (anvil mines one a second): each reaches the page over the stream
    await expect.poll(() => shownBlock(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(first + 3)
    await expect(page.getByTestId('live-state')).toHaveText('live')
    await expect(page.getByTestId('feed-source')).toHaveAttribute('data-value', 'stream')
    expect(seen.streams).toBeGreaterThanOrEqual(1)
    // the accuracy panel polls /accuracy on its own slow schedule; the fee numbers are never polled
    expect(seen.fees).toEqual([])
  })

  for (const [how, fail] of [
    ['answers 503', { status: 503 }],
    ['cannot be reached', 'abort'],
  ] as const) {
    test(`when the stream ${how} the page polls the five fee endpoints of one block and still updates`, async ({ page }) => {
      await page.route(STREAM, (route) =>
        fail === 'abort'
          ? route.abort('connectionrefused')
          : route.fulfill({
              status: fail.status,
              contentType: 'application/json',
              body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'The stream is down (test).' }),
            }),
      )
      const seen = watchRequests(page)
      // the endpoint's answers to the page, by the block they speak of (X-Block-Number)
      const answered = new Map<number, SuggestedGasFees>()
      page.on('response', async (res) => {
        if (!new URL(res.url()).pathname.endsWith('/suggestedGasFees') || !res.ok()) return
        const body = (await res.json().catch(() => null)) as SuggestedGasFees | null
        if (body) answered.set(Number(res.headers()['x-block-number']), body)
      })
      await page.goto(CHAIN)
      await expect(page.getByTestId('feed-source')).toHaveAttribute('data-value', 'polling', { timeout: 30_000 })
      const first = await shownBlock(page)
      await expect.poll(() => shownBlock(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(first + 2)
      await expect(page.getByTestId('live-state')).toHaveText('live')
      for (const endpoint of ['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory', 'baseFeeForecast'])
        expect(seen.fees).toContain(`${CHAIN}/${endpoint}`)
      // and what it shows is the API's answer for the block it names: a fresh read when the API is still
      // at that block, else the answer the page was given for it
      let same = false
      await expect
        .poll(
          async () => {
            const shown = await readChainView(page)
            const fresh = await apiGet<SuggestedGasFees>(`${CHAIN}/suggestedGasFees`)
            const api = fresh.block === shown.block ? fresh.body : answered.get(shown.block)
            if (!api) return false
            expect(shown.levels).toEqual({ low: api.low, medium: api.medium, high: api.high })
            expect(shown.estimatedBaseFee).toBe(api.estimatedBaseFee)
            expect(shown.networkCongestion).toBe(api.networkCongestion)
            return (same = true)
          },
          { message: 'the page and the API never spoke of the same block', timeout: 30_000 },
        )
        .toBe(true)
      expect(same).toBe(true)
    })
  }
})

/** The readout of the chart and the head block it was drawn for, read in one go. */
const readout = (page: Page) =>
  page.getByTestId('chart-readout').evaluate((el) => ({
    index: Number(el.getAttribute('data-index')),
    block: Number(el.getAttribute('data-block')),
    head: Number(el.getAttribute('data-head')),
    value: el.getAttribute('data-value'),
    text: el.textContent ?? '',
  }))

/** The base fee the API's history gives for a block (the history ends at the answer's x-block-number). */
async function apiBaseFee(block: number): Promise<string | undefined> {
  const api = await apiGet<string[]>(`${CHAIN}/baseFeeHistory`)
  return api.body[block - (api.block - api.body.length + 1)]
}

test.describe('chart', () => {
  test('hovering reads out the block under the pointer; the arrow keys move it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(CHAIN)
    await expect(page.getByTestId('history-line')).toBeVisible()
    const points = (await readChainView(page)).chartPoints
    expect(points).toBe(500)
    await expect(page.locator('svg line[data-line^="level-"]')).toHaveCount(3)
    await expect(page.getByTestId('y-tick').first()).toBeVisible()
    await expect(page.getByTestId('x-tick').first()).toBeVisible()

    const slider = page.getByTestId('chart-slider')
    await slider.scrollIntoViewIfNeeded()
    const box = (await slider.boundingBox())!
    const index = 123
    // the points span the plot's full width, oldest at the left edge
    await page.mouse.move(box.x + (index / (points - 1)) * box.width, box.y + box.height / 2)
    await expect(page.getByTestId('crosshair')).toBeVisible()
    await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-index', String(index))
    const hovered = await readout(page)
    expect(hovered.block).toBe(hovered.head - (points - 1) + index)
    expect(hovered.text).toContain(`Block ${hovered.block}`)
    expect(hovered.value).toBe(await apiBaseFee(hovered.block))

    // keyboard: focus picks the newest block, the arrows step one block
    await page.mouse.move(0, 0)
    await expect(page.getByTestId('crosshair')).toHaveCount(0)
    await slider.focus()
    await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-index', String(points - 1))
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft')
    await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-index', String(points - 4))
    const keyed = await readout(page)
    expect(keyed.block).toBe(keyed.head - 3)
    expect(keyed.value).toBe(await apiBaseFee(keyed.block))
    // the slider's spoken value names the same block as the readout (both read again together: a new
    // block may have shifted the chart under the selected index since `keyed` was read)
    await expect
      .poll(async () => {
        const now = await readout(page)
        const text = await slider.getAttribute('aria-valuetext')
        return text?.startsWith(`Block ${now.block}, base fee`) === true
      })
      .toBe(true)
    await page.keyboard.press('Home')
    await expect(page.getByTestId('chart-readout')).toHaveAttribute('data-index', '0')
  })
})

test.describe('accuracy', () => {
  test('the accuracy panel shows what GET /accuracy answers for the same window', async ({ page }) => {
    // the answers the endpoint gave the page, by window head (the page refreshes them every ~10 s)
    const answered = new Map<number, AccuracyReportBody>()
    page.on('response', async (res) => {
      if (!new URL(res.url()).pathname.endsWith('/accuracy') || !res.ok()) return
      const body = (await res.json().catch(() => null)) as AccuracyReportBody | null
      if (body) answered.set(body.window.headBlock, body)
    })
    await page.goto(CHAIN)
    const panel = page.getByTestId('accuracy')
    await expect(panel).toHaveAttribute('data-head-block', /^\d+$/)

    let compared = false
    await expect
      .poll(
        async () => {
          const shown = await panel.evaluate((el) => ({
            head: Number(el.getAttribute('data-head-block')),
            levels: ['low', 'medium', 'high'].map((l) => {
              const li = el.querySelector(`[data-testid="accuracy-${l}"]`)
              return {
                level: l as 'low' | 'medium' | 'high',
                trials: Number(li?.getAttribute('data-trials')),
                share: li?.getAttribute('data-value'),
                text: li?.textContent ?? '',
              }
            }),
          }))
          // a fresh read from outside the page, or the endpoint's answer to the page, for the window shown
          const fresh = await apiGet<AccuracyReportBody>(`${CHAIN}/accuracy`)
          const api = fresh.body.window.headBlock === shown.head ? fresh.body : answered.get(shown.head)
          if (!api) return false
          for (const { level, trials, share, text } of shown.levels) {
            const want = api.levels[level]
            expect(trials).toBe(want.trials)
            if (want.trials === 0 || want.includedWithinPromise === null) expect(text).toContain('not enough blocks judged yet')
            else {
              expect(Number(share)).toBe(want.includedWithinPromise)
              const percent = `${(Math.round(want.includedWithinPromise * 1000) / 10).toFixed(1)}%`
              expect(text).toContain(`${level} got in within its promise`)
              expect(text).toContain(`in ${percent} of the last ${want.trials} blocks`)
            }
          }
          return (compared = true)
        },
        { message: 'the panel never showed a window the endpoint answered', timeout: 45_000 },
      )
      .toBe(true)
    expect(compared).toBe(true)
  })
})

test.describe('costs', () => {
  test('the cost panel is gas × the fees the page shows, of the same block, in ETH', async ({ page }) => {
    await page.goto(CHAIN)
    await expect(page.getByTestId('cost-transfer-medium')).toBeVisible()
    await expect(page.getByTestId('cost-transfer')).toContainText('ETH')
    // one read of the page: the costs and the fees they come from belong to the same render
    const shown = await page.evaluate(() => {
      const v = (id: string, attr = 'data-value') => document.querySelector(`[data-testid="${id}"]`)?.getAttribute(attr) ?? ''
      const actions = ['transfer', 'erc20', 'swap'].map((a) => ({
        action: a,
        gas: v(`cost-${a}`, 'data-gas'),
        levels: ['low', 'medium', 'high'].map((l) => ({
          level: l,
          likely: v(`cost-${a}-${l}`),
          max: v(`cost-${a}-${l}`, 'data-max'),
          maxFee: v(`${l}-max-fee`),
          priorityFee: v(`${l}-priority-fee`),
        })),
      }))
      return { baseFee: v('base-fee'), actions }
    })
    expect(shown.actions.map((a) => a.gas)).toEqual(['21000', '65000', '150000'])
    for (const { gas, levels } of shown.actions) {
      for (const l of levels) {
        const maxFee = parseGwei(l.maxFee)
        const effective = parseGwei(shown.baseFee) + parseGwei(l.priorityFee)
        expect(BigInt(l.max)).toBe(BigInt(gas) * maxFee)
        expect(BigInt(l.likely)).toBe(BigInt(gas) * (effective < maxFee ? effective : maxFee))
      }
    }
  })
})
