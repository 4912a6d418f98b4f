import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { weightedPercentile } from '@/lib/core/evaluation/judge'
import { fromJsonLines } from '@/scripts/record/recording'
import { freePort } from '@/scripts/devnet/anvil'
import { at, ctx } from './helpers'

const run = promisify(execFile)

async function nodeFeeHistory(url: string, first: number, count: number) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_feeHistory',
      params: [`0x${count.toString(16)}`, `0x${(first + count - 1).toString(16)}`, [0, 50, 100]],
    }),
  })
  return ((await res.json()) as { result: { baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][] } }).result
}

describe('npm run record, then npm run backtest', () => {
  test("behavior: records a devnet window that agrees with the node's eth_feeHistory, and backtests it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gas-api-'))
    const out = join(dir, 'devnet.jsonl')
    await run('npm', ['run', 'record', '--', '--rpc', ctx().nodeUrl, '--blocks', '60', '--out', out], { timeout: 60_000 })
    const rec = fromJsonLines(readFileSync(out, 'utf8'))
    expect(rec.header).toMatchObject({ format: 'gas-api-blocks/1', chainId: 31337, tipData: 'full' })
    expect(rec.blocks).toHaveLength(60)

    const first = at(rec.blocks, 0).number
    const fh = await nodeFeeHistory(ctx().nodeUrl, first, 60)
    rec.blocks.forEach((b, i) => {
      expect(b.baseFeePerGas).toBe(BigInt(at(fh.baseFeePerGas, i)).toString())
      expect(b.gasUsed / b.gasLimit).toBeCloseTo(at(fh.gasUsedRatio, i), 6)
      expect(b.txs!.reduce((s, t) => s + t.gas, 0)).toBe(b.gasUsed) // gas from receipts
      if (b.txs!.length) {
        // the node's own gas-weighted percentiles from the recorded tips
        const sorted = b.txs!.map((t) => ({ tip: BigInt(t.tip), gas: t.gas })).sort((x, y) => (x.tip < y.tip ? -1 : x.tip > y.tip ? 1 : 0))
        for (const [j, p] of [0, 50, 100].entries()) expect(weightedPercentile(sorted, p)).toBe(BigInt(at(at(fh.reward, i), j)))
      }
    })
    expect(rec.blocks.filter((b) => b.txs!.length > 0).length).toBeGreaterThan(30)

    const json = join(dir, 'result.json')
    const { stdout } = await run('npm', ['run', 'backtest', '--', out, '--json', json], { timeout: 60_000 })
    expect(stdout).toMatch(/\| ours \| medium \| \d+ \| 3 \|/)
    const [result] = JSON.parse(readFileSync(json, 'utf8'))
    expect(result).toMatchObject({ chainId: 31337, mode: 'fees', blocks: 60 })
    expect(new Set(result.metrics.map((m: { strategy: string }) => m.strategy))).toEqual(
      new Set(['ours', 'metamask-feehistory', 'viem', 'ethers', 'infura-shape']),
    )
  })
})

describe('npm run record against a node that fails', () => {
  // provider URLs embed API keys: the URL (host, path, query, credentials) must appear nowhere
  const secretParts = ['FAKE-PROVIDER-KEY-0123', 'FAKE-QUERY-KEY-4567', 'fake-password-89']
  const fakeUrl = (port: number) => `http://user:fake-password-89@127.0.0.1:${port}/v3/FAKE-PROVIDER-KEY-0123?apikey=FAKE-QUERY-KEY-4567`
  const failed = (err: unknown) => err as { code: number; stdout: string; stderr: string }

  test('error: a closed port: exit code 1, one line naming the error, no part of the URL in stdout or stderr', async () => {
    const port = await freePort()
    const out = join(mkdtempSync(join(tmpdir(), 'gas-api-')), 'never.jsonl')
    const args = ['--import', 'tsx', 'scripts/record.ts', '--rpc', fakeUrl(port), '--blocks', '5', '--out', out]
    const r = failed(await run(process.execPath, args, { timeout: 60_000 }).catch((e: unknown) => e))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^npm run record: HttpRequestError: HTTP request failed\.$/m)
    for (const part of [...secretParts, `127.0.0.1:${port}`]) expect(r.stdout + r.stderr).not.toContain(part)
  })

  test("behavior: --rpc RPC_URL_<id> reads the URL from that variable, so even npm's echo of the command line shows none", async () => {
    const port = await freePort()
    const out = join(mkdtempSync(join(tmpdir(), 'gas-api-')), 'never.jsonl')
    const env = { ...process.env, RPC_URL_31999: fakeUrl(port) }
    const r = failed(
      await run('npm', ['run', 'record', '--', '--rpc', 'RPC_URL_31999', '--blocks', '5', '--out', out], { timeout: 60_000, env }).catch(
        (e: unknown) => e,
      ),
    )
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('--rpc RPC_URL_31999')
    expect(r.stderr).toMatch(/npm run record: HttpRequestError/)
    for (const part of [...secretParts, `127.0.0.1:${port}`]) expect(r.stdout + r.stderr).not.toContain(part)
  })
})
