import { apiGet, expect, test } from './fixtures'
import type { BlobFeesBody } from '@/lib/core/contract/schemas'
import { formatGweiShort } from '@/app/_components/format'

test.describe('blob panel', () => {
  test("a chain with blobs (the devnet's anvil reports them) shows the blob fees of the block the API answers", async ({ page }) => {
    await page.goto('/networks/31337')
    const panel = page.getByTestId('blob-panel')
    await expect(panel).toBeVisible()
    await expect(panel.getByRole('heading', { name: 'Blob fees' })).toBeVisible()
    // the page moves to each new block's numbers: compare when the panel and the API speak of the same block
    let same: { shown: Record<string, string | null>; api: BlobFeesBody } | undefined
    await expect
      .poll(
        async () => {
          const shown = await page.evaluate(() => {
            const v = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value') ?? null
            return {
              block: document.querySelector('[data-testid="blob-panel"]')?.getAttribute('data-block') ?? null,
              next: v('blob-base-fee'),
              low: v('blob-low'),
              medium: v('blob-medium'),
              high: v('blob-high'),
              p50: v('blob-forecast-10-p50'),
              p99: v('blob-forecast-10-p99'),
              bound: v('blob-forecast-10-bound'),
              fanLabel: document.querySelector('[data-testid="blob-fan"]')?.getAttribute('aria-label') ?? null,
              fanPoints: String(document.querySelectorAll('[data-testid="blob-fan"] circle').length),
            }
          })
          const api = await apiGet<BlobFeesBody>('/networks/31337/blobFees')
          if (String(api.block) === shown.block) same = { shown, api: api.body }
          return same !== undefined
        },
        { message: 'the panel and the API never spoke of the same block', timeout: 30_000 },
      )
      .toBe(true)
    const { shown, api } = same!
    expect(shown.next).toBe(api.estimatedBlobBaseFee)
    expect([shown.low, shown.medium, shown.high]).toEqual([
      api.low.suggestedMaxFeePerBlobGas,
      api.medium.suggestedMaxFeePerBlobGas,
      api.high.suggestedMaxFeePerBlobGas,
    ])
    await expect(page.getByTestId('blob-capacity')).toContainText(`target ${api.blobTarget}, max ${api.blobMax} blobs`)
    // the forecast's tenth block, as the API says it
    const h10 = api.forecast.horizons[9]!
    expect([shown.p50, shown.p99, shown.bound]).toEqual([h10.p50, h10.p99, h10.bound])
    await expect(page.getByTestId('blob-forecast')).toHaveAttribute('data-method', api.forecast.method)
    // the fan: a point per horizon, and its label reads the tenth block's quantiles
    expect(shown.fanPoints).toBe(String(api.forecast.horizons.length))
    expect(shown.fanLabel).toContain(
      `at +10 p50 ${formatGweiShort(h10.p50)}, p90 ${formatGweiShort(h10.p90)}, p99 ${formatGweiShort(h10.p99)}`,
    )
  })

  test('a chain whose node reports no blobs shows no blob panel', async ({ page }) => {
    await page.goto('/networks/31343')
    await expect(page.getByTestId('block-number')).toBeVisible()
    await expect(page.getByTestId('level-medium')).toBeVisible()
    await expect(page.getByTestId('blob-panel')).toHaveCount(0)
  })
})
