import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { blobScheduleOf, GAS_PER_BLOB, type BlobSchedule } from '@/lib/core/chain-rules/blob-schedule'
import { calcExcessBlobGas } from '@/lib/core/fee-math/blob-forecast'
import { createRandom } from '@/scripts/devnet/traffic-model'

/**
 * `npm run backtest -- <blob window.csv> [--json out] [--every n] [--infer-base-fee]` end to end, as a user runs
 * it: 700 BPO2 blocks (500 of history, then 200 heads) whose excess the protocol made from random blob counts
 * and a wandering base fee, written with the base-fee column.
 */
const dir = mkdtempSync(join(tmpdir(), 'backtest-blob-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const script =
  (file: string) =>
  (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { encoding: 'utf8', timeout: 120_000 })
const backtest = script('scripts/backtest.ts')
const reserveWindow = script('scripts/blob-reserve-window.ts')

function blobCsv(): string {
  const bpo2 = (blobScheduleOf(1) as BlobSchedule).find((f) => f.name === 'BPO2')!
  const rnd = createRandom(21)
  const start = bpo2.activatesAt + 86_400
  const lines = ['block_number,timestamp,blob_count,excess_blob_gas,basefee_wei']
  let excess = 60_000_000n
  let baseFee = 50_000_000
  for (let i = 0; i < 700; i++) {
    const count = Math.floor(rnd() * 22)
    lines.push(`${24_000_000 + i},${start + 12 * i},${count},${excess},${Math.round(baseFee)}`)
    excess = calcExcessBlobGas(bpo2, excess, BigInt(count) * GAS_PER_BLOB, BigInt(Math.round(baseFee)))
    baseFee *= 1 + (rnd() * 2 - 1) * 0.04
  }
  return lines.join('\n') + '\n'
}
const csvFile = join(dir, 'blobs.csv')
writeFileSync(csvFile, blobCsv())

type BlobReport = {
  trials: number
  baseFee: 'column' | 'inferred'
  blobForecast: { horizon: number; trials: number; p50Coverage: number; p90Coverage: number; p99Coverage: number }[]
  blobMaxFee: { level: string; lag: number; trials: number; heldShare: number }[]
}

describe('npm run backtest -- <blob window.csv>', () => {
  test(
    'default: reads the blob columns, prints the blob tables and writes blobForecast and blobMaxFee to --json; --infer-base-fee ignores the base-fee column',
    { timeout: 240_000 },
    () => {
      const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as BlobReport
      const shown = join(dir, 'shown.json')
      const run = backtest(csvFile, '--every', '5', '--json', shown)
      expect(run.status, run.stderr).toBe(0)
      expect(run.stdout).toMatch(/700 blocks \(24000000–24000699\), 12000 ms interval, 40 trials, base fee from the file's column/)
      expect(run.stdout).toMatch(/### blob base fee forecast/)
      expect(run.stdout).toMatch(/### maxFeePerBlobGas held/)
      const a = read(shown)
      expect(a.baseFee).toBe('column')
      expect(a.trials).toBe(40)
      expect(a.blobForecast.map((r) => r.horizon)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      // horizon 1 is the next block's blob base fee, exact
      expect([a.blobForecast[0]!.p50Coverage, a.blobForecast[0]!.p99Coverage]).toEqual([1, 1])
      expect(a.blobMaxFee.map((r) => `${r.level}:${r.lag}`)).toEqual([
        'low:0',
        'low:1',
        'low:2',
        'medium:0',
        'medium:1',
        'medium:2',
        'high:0',
        'high:1',
        'high:2',
      ])
      for (const r of a.blobMaxFee) expect(r.heldShare).toBeGreaterThanOrEqual(0)

      const hidden = join(dir, 'hidden.json')
      const again = backtest(csvFile, '--every', '5', '--infer-base-fee', '--json', hidden)
      expect(again.status, again.stderr).toBe(0)
      expect(again.stdout).toMatch(/base fee inferred from the blob data \(read only where EIP-7918 is active\)/)
      const b = read(hidden)
      expect(b.baseFee).toBe('inferred')
      expect(b.trials).toBe(a.trials)
    },
  )
})

describe('npm run blob-reserve-window', () => {
  test(
    'default: joins a blob window with a base-fee path into a blob window the backtest reads with its base fee',
    { timeout: 240_000 },
    () => {
      // the blob window's own base fees as the path: scaled so the first ÷ 16 is the first blob base fee
      const rows = readFileSync(csvFile, 'utf8').trim().split('\n').slice(1)
      const baseFeeFile = join(dir, 'base-fees.csv')
      writeFileSync(
        baseFeeFile,
        ['block_number,timestamp,basefee_wei', ...rows.map((r) => r.split(',')).map((c) => `${c[0]},${c[1]},${c[4]}`)].join('\n') + '\n',
      )
      const out = join(dir, 'joined.csv')
      const run = reserveWindow('--blobs', csvFile, '--base-fees', baseFeeFile, '--out', out)
      expect(run.status, run.stderr).toBe(0)
      expect(run.stdout).toMatch(/wrote .*joined\.csv: 700 blocks/)
      const joined = readFileSync(out, 'utf8').trim().split('\n')
      expect(joined[0]).toBe('block_number,timestamp,blob_count,excess_blob_gas,basefee_wei')
      expect(joined).toHaveLength(701)
      const json = join(dir, 'joined.json')
      const bt = backtest(out, '--every', '50', '--json', json)
      expect(bt.status, bt.stderr).toBe(0)
      expect((JSON.parse(readFileSync(json, 'utf8')) as BlobReport).baseFee).toBe('column')
    },
  )

  test(
    'errors: a missing file is one line naming it and exit code 1; a missing option prints the usage, exit code 2',
    { timeout: 120_000 },
    () => {
      const missing = join(dir, 'no-such.csv')
      const run = reserveWindow('--blobs', missing, '--base-fees', missing, '--out', join(dir, 'x.csv'))
      expect(run.status).toBe(1)
      expect(run.stderr.trim()).toBe(`blob-reserve-window: ${missing}: no such file`)
      const usage = reserveWindow('--blobs', csvFile)
      expect(usage.status).toBe(2)
      expect(usage.stderr).toMatch(/^usage: npm run blob-reserve-window -- --blobs/)
    },
  )
})
