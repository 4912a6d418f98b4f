import { mkdirSync } from 'node:fs'
import { apiGet, expect, test } from './fixtures'

const SHOTS = 'test-results/screenshots'
const burst = (on: boolean) => fetch(`${process.env.E2E_FLASHBLOCKS_NODE}/__burst/${on ? 'on' : 'off'}`, { method: 'POST' })

test.describe('a flashblocks chain (130: 1-s blocks in 5 pieces)', () => {
  test.afterEach(async () => {
    await burst(false)
  })

  test('the page shows the waits in pieces and says when the pending pieces are full', async ({ page }) => {
    test.setTimeout(240_000)
    await page.goto('/networks/130')
    const note = page.getByTestId('pieces-note')
    // the service probes the node for three block intervals before it follows the pieces; on a busy machine a probe
    // whose reads came too sparse is tried again two probes' lengths later, up to four probes: 30 s of probing on
    // 1-s blocks, plus the first sealed read, the thread's start, and up to a block before each probe tried again
    await expect(note).toBeVisible({ timeout: 120_000 })
    await expect(note).toHaveAttribute('data-full', 'false')
    const api = await apiGet<{ pending: { cadenceMs: number; pieces: number } }>('/networks/130/suggestedGasFees')
    // measured from the node: the probe's reads lag on a busy machine, so within a piece of the node's 5
    expect(Math.abs(api.body.pending.pieces - 5)).toBeLessThanOrEqual(1)
    await expect(note).toContainText(`${api.body.pending.pieces} pieces`)
    await expect(page.getByTestId('high-wait')).toContainText(/1–2 pieces \(0\.\d–0\.\d s\)/)
    await burst(true)
    await expect(note).toHaveAttribute('data-full', 'true', { timeout: 15_000 })
    await expect(note).toContainText('The pending pieces are full')
    mkdirSync(SHOTS, { recursive: true })
    await page
      .getByTestId('pieces-note')
      .locator('xpath=ancestor::section')
      .screenshot({ path: `${SHOTS}/flashblocks-130.png` })
    await burst(false)
    await expect(note).toHaveAttribute('data-full', 'false', { timeout: 15_000 })
    // the accuracy panel judges per piece too, as the API does
    await page.reload()
    const high = page.getByTestId('accuracy-pieces-high')
    await expect(high).toBeVisible({ timeout: 30_000 })
    const report = await apiGet<{ pieces: { levels: { high: { promisedPieces: number } } } }>('/networks/130/accuracy')
    await expect(high).toContainText(`within ${report.body.pieces.levels.high.promisedPieces} pieces`)
    expect(Number(await high.getAttribute('data-trials'))).toBeGreaterThan(0)
  })

  test('an anvil devnet with traffic (31337) is not taken for a flashblocks chain', async ({ page }) => {
    // its pending block is anvil's pool, which fills right after each block: probed for three block intervals while
    // asked, and answered in blocks throughout
    const first = await apiGet<{ pending?: unknown }>('/networks/31337/suggestedGasFees')
    expect(first.body.pending).toBeUndefined()
    const pieced: boolean[] = []
    await expect
      .poll(
        async () => {
          const now = await apiGet<{ pending?: unknown }>('/networks/31337/suggestedGasFees')
          pieced.push(now.body.pending !== undefined)
          return now.block - first.block
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(5)
    expect(pieced.filter(Boolean)).toEqual([])
    await page.goto('/networks/31337')
    await expect(page.getByTestId('level-high')).toBeVisible()
    await expect(page.getByTestId('high-wait')).not.toContainText('piece')
    await expect(page.getByTestId('pieces-note')).toHaveCount(0)
  })
})
