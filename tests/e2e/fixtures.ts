import { test as base, expect, type Page } from '@playwright/test'

export const env = () => ({
  baseURL: process.env.E2E_BASE_URL!,
  user: process.env.E2E_USER!,
  password: process.env.E2E_PASSWORD!,
})

/** A page signed in with the test API key (the browser answers the Basic challenge). */
export const test = base.extend<object>({
  // (Playwright's fixture callback is named `provide` here: React's hook rule claims the name `use`)
  baseURL: async ({}, provide) => provide(env().baseURL),
  httpCredentials: async ({}, provide) => provide({ username: env().user, password: env().password }),
})
export { expect }

/** GET the API directly (not through the page), with the same credentials. */
export async function apiGet<T = Record<string, unknown>>(path: string): Promise<{ block: number; body: T }> {
  const { baseURL, user, password } = env()
  const res = await fetch(`${baseURL}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
  })
  return { block: Number(res.headers.get('x-block-number')), body: (await res.json()) as T }
}

/** What the chain view shows right now: exact values from data-value attributes. */
export async function readChainView(page: Page) {
  return page.evaluate(() => {
    const v = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value') ?? null
    const range = (id: string) =>
      [...document.querySelectorAll(`[data-testid="${id}"] [data-value]`)].map((e) => e.getAttribute('data-value'))
    const wait = (level: string) => {
      const el = document.querySelector(`[data-testid="${level}-wait"]`)
      return { min: Number(el?.getAttribute('data-min')), max: Number(el?.getAttribute('data-max')) }
    }
    const level = (l: string) => ({
      suggestedMaxFeePerGas: v(`${l}-max-fee`),
      suggestedMaxPriorityFeePerGas: v(`${l}-priority-fee`),
      minWaitTimeEstimate: wait(l).min,
      maxWaitTimeEstimate: wait(l).max,
    })
    return {
      block: Number(document.querySelector('[data-testid="block-number"]')?.textContent),
      levels: { low: level('low'), medium: level('medium'), high: level('high') },
      estimatedBaseFee: v('base-fee'),
      networkCongestion: Number(v('congestion')),
      baseFeeTrend: v('base-fee-trend'),
      priorityFeeTrend: v('priority-fee-trend'),
      latestPriorityFeeRange: range('latest-priority-range'),
      historicalPriorityFeeRange: range('historical-priority-range'),
      chartPoints: document.querySelector('[data-testid="history-line"]')?.getAttribute('points')?.trim().split(/\s+/).length ?? 0,
    }
  })
}
