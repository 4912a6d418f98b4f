import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { api, ctx } from './helpers'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('a real anvil paused with SIGSTOP', () => {
  test('behavior: answers within the timeout with stale data, then recovers by itself after SIGCONT', async () => {
    const { chains, freezablePid, rpcTimeoutMs } = ctx()
    const path = `/networks/${chains.freezable}/suggestedGasFees`
    const fresh = await api(path)
    expect(fresh.status).toBe(200)
    process.kill(freezablePid, 'SIGSTOP')
    try {
      await sleep(2_200) // past freshness (1 s) and the one-interval grace
      const started = Date.now()
      const stale = await api(path)
      expect(Date.now() - started).toBeLessThan(rpcTimeoutMs + 1_000)
      expect(stale.status).toBe(200)
      expect(stale.headers.get('x-data-stale')).toBe('true')
      expect(stale.headers.get('x-block-number')).toBe(fresh.headers.get('x-block-number'))
    } finally {
      process.kill(freezablePid, 'SIGCONT')
    }
    await sleep(2_500)
    const recovered = await api(path)
    expect(recovered.status).toBe(200)
    expect(recovered.headers.get('x-data-stale')).toBe('false')
    expect(Number(recovered.headers.get('x-block-number'))).toBeGreaterThan(Number(fresh.headers.get('x-block-number')))
  })
})

describe('a node on the wrong chain', () => {
  test('error: 502 naming the chain it serves, no numbers', async () => {
    const res = await api(`/networks/${ctx().chains.wrongChain}/suggestedGasFees`)
    expect(res.status).toBe(502)
    expect(res.body.message).toMatch(/configured for chain 31345 serves chain 31337/)
  })
})

describe('logs', () => {
  test('behavior: upstream failures are logged as one JSON line each, without URLs or secrets', async () => {
    await api(`/networks/${ctx().chains.garbage}/suggestedGasFees`)
    await api(`/networks/${ctx().chains.down}/suggestedGasFees`)
    await sleep(200)
    const log = readFileSync(ctx().logFile, 'utf8')
    expect(log).toMatch(/"error":"UpstreamBadResponseError"/)
    expect(log).toMatch(/"error":"UpstreamUnavailableError"/)
    for (const url of ctx().rpcUrls) expect(log).not.toContain(new URL(url).host)
    for (const [, secret] of Object.values(ctx().credentials)) expect(log).not.toContain(secret)
    expect(log).not.toMatch(/unhandled/i)
  })
})
