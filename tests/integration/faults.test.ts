import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { api, ctx, eventually, staleAnswer } from './helpers'

describe('a real anvil paused with SIGSTOP', () => {
  test('behavior: answers within the timeout with stale data, then recovers by itself after SIGCONT', async () => {
    const { chains, freezablePid, rpcTimeoutMs } = ctx()
    const path = `/networks/${chains.freezable}/suggestedGasFees`
    const fresh = await api(path)
    expect(fresh.status).toBe(200)
    process.kill(freezablePid, 'SIGSTOP')
    let stale: Awaited<ReturnType<typeof api>>
    try {
      // while the node stays frozen, every answer comes (a read that waited for the node would never
      // end): fresh data first, then, once the window's freshness and grace have passed and a read
      // has timed out (RPC_TIMEOUT_MS), the last window marked stale
      stale = await staleAnswer(path, 'a stale answer while the node is frozen', 20 * rpcTimeoutMs)
    } finally {
      process.kill(freezablePid, 'SIGCONT')
    }
    // the node that froze after `fresh` never served a later block
    expect(stale.headers.get('x-block-number')).toBe(fresh.headers.get('x-block-number'))
    // thawed, the service recovers by itself: current data from a later block
    const recovered = await eventually(async () => {
      const res = await api(path)
      const later = Number(res.headers.get('x-block-number')) > Number(fresh.headers.get('x-block-number'))
      return res.status === 200 && res.headers.get('x-data-stale') === 'false' && later ? res : undefined
    }, 'current data after SIGCONT')
    expect(recovered.status).toBe(200)
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
    // the server writes its log lines asynchronously
    const log = await eventually(async () => {
      const text = readFileSync(ctx().logFile, 'utf8')
      return /"error":"UpstreamBadResponseError"/.test(text) && /"error":"UpstreamUnavailableError"/.test(text) ? text : undefined
    }, 'both upstream errors in the log')
    for (const url of ctx().rpcUrls) expect(log).not.toContain(new URL(url).host)
    for (const [, secret] of Object.values(ctx().credentials)) expect(log).not.toContain(secret)
    expect(log).not.toMatch(/unhandled/i)
  })
})
