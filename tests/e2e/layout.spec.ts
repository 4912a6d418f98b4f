import { mkdirSync } from 'node:fs'
import { expect, test } from './fixtures'

const SHOTS = 'test-results/screenshots'

for (const path of ['/networks/31337', '/']) {
  test(`no horizontal scroll at 320 px: ${path}`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 800 })
    await page.goto(path)
    await expect(page.getByTestId('medium-max-fee').first()).toBeVisible()
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }))
    expect(scroll).toBeLessThanOrEqual(client)
  })
}

test('screenshots: chain view light and dark, overview', async ({ page }, testInfo) => {
  // three pages rendered and shot: slow with two suites at once (docs/benchmarks.md)
  test.setTimeout(180_000)
  mkdirSync(SHOTS, { recursive: true })
  await page.setViewportSize({ width: 1200, height: 900 })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto('/networks/31337')
    await expect(page.getByTestId('history-line')).toBeVisible()
    // the theme follows the system: a light page has a light background, a dark one a dark background
    // (Tailwind 4 computes oklch() colours, so read the painted pixel back through a canvas)
    const brightness = await page.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d')!
      ctx.fillStyle = getComputedStyle(document.body).backgroundColor
      ctx.fillRect(0, 0, 1, 1)
      // the mean of the pixel's red, green and blue
      return (
        ctx
          .getImageData(0, 0, 1, 1)
          .data.subarray(0, 3)
          .reduce((sum, c) => sum + c, 0) / 3
      )
    })
    expect(brightness > 128).toBe(scheme === 'light')
    const file = `${SHOTS}/chain-view-${scheme}.png`
    await page.screenshot({ path: file, fullPage: true })
    await testInfo.attach(`chain-view-${scheme}`, { path: file, contentType: 'image/png' })
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/')
  await expect(page.getByTestId('medium-max-fee').first()).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/overview.png`, fullPage: true })
  await testInfo.attach('overview', { path: `${SHOTS}/overview.png`, contentType: 'image/png' })
})
