// GET /networks/{chainId}/accuracy against `npm run backtest` on a recording of the same blocks: the
// live and offline numbers come from the same code and judge, so they must agree exactly.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import type { AccuracyReport } from '@/lib/core/evaluation/accuracy'
import type { BacktestResult } from '@/lib/core/evaluation/backtest'
import { REWARD_PERCENTILES } from '@/lib/core/fee-math/estimator'
import { toJsonLines, type Recording } from '@/scripts/record/recording'
import { api, ctx, eventually, metrics } from './helpers'

const run = promisify(execFile)

async function rpcBatch<T>(calls: { method: string; params: unknown[] }[]): Promise<T[]> {
  const res = await fetch(ctx().nodeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, ...c }))),
  })
  const out = (await res.json()) as { id: number; result: T }[]
  return out.sort((a, b) => a.id - b.id).map((r) => r.result)
}

const hex = (n: number) => `0x${n.toString(16)}`

describe('GET /networks/{chainId}/accuracy', () => {
  test('behavior: equals `npm run backtest` (ours, lenient judge, no lag) on a recording of the same blocks from the node', async () => {
    const chain = ctx().chains.live
    // a current answer (a window read for it, not one kept while the next read runs)
    const res = await eventually(async () => {
      const r = await api(`/networks/${chain}/accuracy`)
      return r.status === 200 && r.headers.get('x-data-stale') === 'false' ? r : undefined
    }, 'a current accuracy answer')
    const live = res.body as unknown as AccuracyReport
    const head = Number(res.headers.get('x-block-number'))
    const intervalMs = Number(res.headers.get('x-block-interval-ms'))
    expect(live.window.headBlock).toBe(head)
    expect(live.window.headBlock - live.window.oldestBlock + 1).toBe(500)
    expect(live.blockIntervalMs).toBe(intervalMs)

    // the same blocks, read from the node directly: eth_feeHistory at the service's percentiles, gas from the headers
    const count = head - live.window.oldestBlock + 1
    const [history] = await rpcBatch<{ oldestBlock: string; baseFeePerGas: string[]; reward: string[][] }>([
      { method: 'eth_feeHistory', params: [hex(count), hex(head), [...REWARD_PERCENTILES]] },
    ])
    expect(Number(history!.oldestBlock)).toBe(live.window.oldestBlock)
    const headers = await rpcBatch<{ gasUsed: string; gasLimit: string }>(
      Array.from({ length: count }, (_, i) => ({ method: 'eth_getBlockByNumber', params: [hex(live.window.oldestBlock + i), false] })),
    )
    const recording: Recording = {
      header: {
        format: 'gas-api-blocks/1',
        chainId: chain,
        source: `devnet blocks ${live.window.oldestBlock}–${head}`,
        tipData: 'percentiles',
        percentiles: [...REWARD_PERCENTILES],
        // the interval the service promised with (its window's measured one)
        nominalBlockIntervalMs: intervalMs,
      },
      blocks: headers.map((h, i) => ({
        number: live.window.oldestBlock + i,
        baseFeePerGas: BigInt(history!.baseFeePerGas[i]!).toString(),
        gasUsed: Number(h.gasUsed),
        gasLimit: Number(h.gasLimit),
        rewards: (history!.reward[i] ?? []).map((r) => BigInt(r).toString()),
      })),
    }
    const dir = mkdtempSync(join(tmpdir(), 'gas-api-accuracy-'))
    const file = join(dir, 'window.jsonl')
    writeFileSync(file, toJsonLines(recording))
    const out = join(dir, 'result.json')
    await run('npm', ['run', 'backtest', '--', file, '--strategy', 'ours', '--judge', 'lenient', '--lag', '0', '--json', out], {
      timeout: 120_000,
    })
    const [offline] = JSON.parse(readFileSync(out, 'utf8')) as BacktestResult[]
    expect(offline).toMatchObject({ judge: 'lenient', lagBlocks: 0, intervalMs, mode: 'fees' })
    expect(live.judge.name).toBe('lenient')
    expect(live.judgedBlocks).toEqual({ from: offline!.firstTrialBlock, to: offline!.lastTrialBlock })
    for (const m of offline!.metrics) {
      const l = live.levels[m.level]
      expect(l.trials, m.level).toBeGreaterThan(400)
      expect(
        [l.trials, l.promisedBlocks, l.includedWithinPromise, l.medianWaitBlocks, l.medianOverpayment, l.targetInclusion],
        m.level,
      ).toEqual([m.trials, m.promisedBlocks, m.inclusionRate, m.medianWaitBlocks, m.medianOverpayment, m.targetInclusion])
    }
  })

  test('behavior: /metrics exports the same numbers as gauges', async () => {
    const chain = ctx().chains.live
    const gauge = (text: string, name: string, level: string) =>
      Number(new RegExp(`^${name}\\{chain="${chain}",level="${level}"\\} (\\S+)$`, 'm').exec(text)?.[1])
    // an accuracy answer and a scrape of the same window: the block did not change between two answers around the scrape
    await eventually(async () => {
      const before = await api(`/networks/${chain}/accuracy`)
      const text = String((await metrics()).body)
      const after = await api(`/networks/${chain}/accuracy`)
      if (before.headers.get('x-block-number') !== after.headers.get('x-block-number')) return undefined
      const report = after.body as unknown as AccuracyReport
      for (const level of ['low', 'medium', 'high'] as const) {
        expect(gauge(text, 'gas_api_accuracy_trials', level)).toBe(report.levels[level].trials)
        expect(gauge(text, 'gas_api_accuracy_included_within_promise_ratio', level)).toBe(report.levels[level].includedWithinPromise)
      }
      return true
    }, 'an accuracy answer and a scrape of the same window')
  })

  test('errors: the same JSON errors as the fee endpoints', async () => {
    expect((await api('/networks/abc/accuracy')).status).toBe(400)
    expect((await api(`/networks/${ctx().chains.unlisted}/accuracy`)).status).toBe(400)
    expect((await api(`/networks/${ctx().chains.live}/accuracy`, { auth: null })).status).toBe(401)
    expect((await api(`/networks/${ctx().chains.live}/accuracy`, { method: 'POST' })).status).toBe(405)
  })
})
