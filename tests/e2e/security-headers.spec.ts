import { expect, test } from './fixtures'

// The pages run under their Content-Security-Policy (a nonce per request, 'strict-dynamic'): every
// script Next needs must carry the nonce, or the browser refuses it and reports a violation.
for (const path of ['/', '/networks/31337']) {
  test(`${path} runs under its CSP with no violation, and is never framed`, async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { __cspViolations: string[] }).__cspViolations = seen
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`),
      )
    })
    const refused: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to (execute|load|apply)/.test(m.text())) refused.push(m.text())
    })
    const res = await page.goto(path)
    const csp = res?.headers()['content-security-policy'] ?? ''
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res?.headers()['x-content-type-options']).toBe('nosniff')
    // client code ran: the views fill in from the API only once their scripts execute
    const scope = path === '/' ? page.getByTestId('chain-31337') : page
    await expect(scope.getByTestId('medium-max-fee')).toHaveAttribute('data-value', /^\d/)
    await expect(page.locator('script:not([nonce])')).toHaveCount(0)
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([])
    expect(refused).toEqual([])
  })
}
