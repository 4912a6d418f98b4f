import { describe, expect, test } from 'vitest'
import { api, ctx, eventually, metrics, setFlakyMode as setMode } from './helpers'

async function counter(re: RegExp): Promise<number> {
  const text = String((await metrics()).body)
  return [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0)
}
const misses = () => counter(/^gas_api_cache_total\{chain="31343",outcome="miss"\} (\d+)$/gm)
const reads = () => counter(/^gas_api_upstream_reads_total\{chain="31343",result="ok"\} (\d+)$/gm)

describe('a slow provider', () => {
  test('behavior: once a chain has a window, no request waits for the upstream: answers come from the last window while the next read runs', async () => {
    const path = `/networks/${ctx().chains.flaky}/suggestedGasFees`
    await setMode('ok')
    // a current window first
    await eventually(async () => {
      const res = await api(path)
      return res.status === 200 && res.headers.get('x-data-stale') === 'false' ? true : undefined
    }, 'a current window')
    await setMode('slow') // every answer now takes 1 s, as long as this chain's block interval
    try {
      const missesBefore = await misses()
      const readsBefore = await reads()
      // requests until the slow node has served at least three more reads
      const answers: { status: number }[] = []
      await eventually(
        async () => {
          const res = await api(path)
          answers.push({ status: res.status })
          return (await reads()) >= readsBefore + 3 ? true : undefined
        },
        'three reads from the slow node',
        60_000,
        50,
      )
      expect(answers.every((a) => a.status === 200)).toBe(true)
      // no request waited for a read: every one was answered from the window held
      expect(await misses()).toBe(missesBefore)
    } finally {
      await setMode('ok')
    }
  })
})
