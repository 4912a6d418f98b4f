import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, test } from 'vitest'
import { nextBaseFee } from '../../support/family-chains'

/**
 * `npm run backtest -- <file.csv[.gz]> [--json out]` end to end, as a user runs it: a small synthetic
 * window (700 blocks: 500 of history, then 200 trials) walked by Ethereum's rule.
 */
const dir = mkdtempSync(join(tmpdir(), 'backtest-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const backtest = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backtest.ts', ...args], { encoding: 'utf8', timeout: 120_000 })

/** 700 blocks from 20 gwei, gas used pseudo-random, 12 s apart; hex block numbers, columns out of order, one extra. */
function windowCsv(): string {
  let seed = 11
  let baseFee = 20_000_000_000n
  const lines = ['timestamp,basefee_gwei,basefee_wei,block_number']
  for (let i = 0; i < 700; i++) {
    lines.push(`${1_700_000_000 + 12 * i},${Number(baseFee) / 1e9},${baseFee},0x${(17_000_000 + i).toString(16)}`)
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    baseFee = nextBaseFee(baseFee, seed / 2 ** 31)
  }
  return lines.join('\n') + '\n'
}
const csvFile = join(dir, 'window.csv')
writeFileSync(csvFile, windowCsv())

type Report = {
  file: string
  chainId: number
  blocks: number
  trials: number
  intervalMs: number
  forecast: { horizon: number; trials: number; p50Coverage: number; p90Coverage: number; p99Coverage: number; medianP99OverNext: number }[]
  maxFee: { level: string; lag: number; trials: number; heldShare: number; medianOverNext: number }[]
}

describe('npm run backtest -- <file.csv>', () => {
  test('default: prints the forecast and max-fee tables and writes their rows to --json', { timeout: 180_000 }, () => {
    const out = join(dir, 'out.json')
    const run = backtest(csvFile, '--json', out)
    expect(run.stderr).not.toMatch(/error/i)
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/700 blocks 17,000,000–17,000,699 \(no gaps\), 12,000 ms interval/)
    expect(run.stdout).toMatch(
      /^\| horizon k \(blocks\) \| trials \| p50 coverage \| p90 coverage \| p99 coverage \| median p99 ÷ next base fee \|$/m,
    )
    expect(run.stdout).toMatch(/^\| level \| promise \| serving lag \(blocks\) \| trials \| held \| median max fee ÷ next base fee \|$/m)
    expect(run.stdout).toMatch(/^coverage bands, horizons 2–10: p50 45–55%: .*; p90 88–92%: .*; p99 ≥ 98\.5%: /m)
    expect(run.stdout).toMatch(/^max fee promises: low ≥ 90\.0%: .*; medium ≥ 95\.0%: .*; high ≥ 99\.0%: /m)

    const report = JSON.parse(readFileSync(out, 'utf8')) as Report
    expect(report).toMatchObject({ file: csvFile, chainId: 1, blocks: 700, trials: 200, intervalMs: 12_000 })
    expect(report.forecast.map((f) => f.horizon)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    for (const f of report.forecast) {
      // a trial at head h judges horizon k when block h + k is in the window
      expect(f.trials).toBe(200 - f.horizon + 1)
      for (const c of [f.p50Coverage, f.p90Coverage, f.p99Coverage]) {
        expect(c).toBeGreaterThanOrEqual(0)
        expect(c).toBeLessThanOrEqual(1)
      }
      expect(f.p50Coverage).toBeLessThanOrEqual(f.p90Coverage)
      expect(f.medianP99OverNext).toBeGreaterThanOrEqual(1)
    }
    expect(report.maxFee.map((m) => `${m.level}:${m.lag}`)).toEqual([
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
    for (const m of report.maxFee) {
      expect(m.trials).toBeGreaterThan(150)
      expect(m.heldShare).toBeGreaterThanOrEqual(0)
      expect(m.heldShare).toBeLessThanOrEqual(1)
    }
  })

  test('args: a gzipped CSV gives the same rows', { timeout: 180_000 }, () => {
    const gz = join(dir, 'window.csv.gz')
    writeFileSync(gz, gzipSync(readFileSync(csvFile)))
    const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')]
    expect(backtest(csvFile, '--json', a, '--lag', '1').status).toBe(0)
    expect(backtest(gz, '--json', b, '--lag', '1').status).toBe(0)
    const rows = (f: string) => {
      const { forecast, maxFee } = JSON.parse(readFileSync(f, 'utf8')) as Report
      return { forecast, maxFee }
    }
    expect(rows(b)).toEqual(rows(a))
    expect(rows(a).maxFee.map((m) => m.lag)).toEqual([1, 1, 1])
  })

  const bad = (name: string, content: string) => {
    const f = join(dir, name)
    writeFileSync(f, content)
    return f
  }
  mkdirSync(join(dir, 'folder.csv'))
  test.each([
    ['a missing file', join(dir, 'nope.csv'), /: no such file$/],
    ['a directory', join(dir, 'folder.csv'), /: is a directory, not a file$/],
    [
      'a CSV without basefee_wei',
      bad('nobase.csv', 'block_number,timestamp\n1,2\n'),
      /: no basefee_wei column \(header line: "block_number,timestamp"\)$/,
    ],
    ['a CSV without block_number', bad('nonumber.csv', 'basefee_wei\n1\n'), /: no block_number column/],
    [
      'a bad number on line 3',
      bad('badnum.csv', 'block_number,basefee_wei\n1,100\n2,12 gwei\n'),
      /: line 3: basefee_wei "12 gwei" is not a decimal/,
    ],
    ['an empty base fee on line 2', bad('empty.csv', 'block_number,basefee_wei\n1,\n'), /: line 2: empty basefee_wei$/],
    ['a .csv.gz that is not gzip', bad('plain.csv.gz', 'block_number,basefee_wei\n1,1\n'), /: not a gzip file/],
    [
      'a CSV passed as a recording',
      bad('window.txt', readFileSync(csvFile, 'utf8')),
      /: not a gas-api-blocks\/1 recording: .*not valid JSON/,
    ],
    [
      'a recording with a broken line',
      bad('broken.jsonl', '{"format":"gas-api-blocks/1","chainId":1}\n{"number": 1,\n'),
      /: line 2 is not JSON/,
    ],
    ['a JSON file', bad('other.json', '{\n  "a": 1\n}\n'), /: not a gas-api-blocks\/1 recording: /],
  ])('error: %s → one line on stderr naming the file, exit code 1, no stack trace', { timeout: 120_000 }, (_, file, reason) => {
    const run = backtest(file, '--json', join(dir, 'never.json'))
    expect(run.status).toBe(1)
    const lines = run.stderr.split('\n').filter((l) => l.trim() !== '')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`backtest: ${file}: `)
    expect(lines[0]).toMatch(reason)
    expect(run.stderr).not.toMatch(/^\s+at /m)
    expect(run.stdout).toBe('')
  })
})
