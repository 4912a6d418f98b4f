import { describe, expect, test } from 'vitest'
import { api, ctx, eventually, setFlakyMode as setMode, staleAfterHang } from './helpers'

describe('upstream failure after data was cached', () => {
  test('behavior: stale data marked as such, then 503 past MAX_STALE_SECONDS, then recovery without restart', async () => {
    const { chains, rpcTimeoutMs, maxStaleSeconds } = ctx()
    const path = `/networks/${chains.flaky}/suggestedGasFees`
    await setMode('ok')
    // a current answer first (a chain left alone for a while answers its old window, stale, at once);
    // then the node stops answering: once the window's freshness and grace have passed and a read has
    // timed out, every answer is the last window, marked stale (a request that waited for the node
    // would never end: any answer comes from the service's own deadline)
    await staleAfterHang(path, 20 * rpcTimeoutMs)

    // past MAX_STALE_SECONDS the last window is no longer served: 503, never invented numbers
    const expired = await eventually(
      async () => {
        const res = await api(path)
        if (res.status === 200) expect(res.headers.get('x-data-stale')).toBe('true')
        return res.status === 503 ? res : undefined
      },
      'a 503 once the data is too old',
      (maxStaleSeconds + 20) * 1_000,
    )
    expect(expired.headers.get('retry-after')).toMatch(/^\d+$/)

    // the node answers again: current data, without a restart
    await setMode('ok')
    await eventually(async () => {
      const res = await api(path)
      return res.status === 200 && res.headers.get('x-data-stale') === 'false' ? true : undefined
    }, 'current data after the node recovers')
  })
})
