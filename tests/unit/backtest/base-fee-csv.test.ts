import { describe, expect, test } from 'vitest'
import { BaseFeeCsvError, DEFAULT_INTERVAL_MS, readBaseFeeCsv } from '@/scripts/backtest/base-fee-csv'
import { consecutiveRuns, forecastBacktest } from '@/scripts/backtest/forecast-trials'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { nextBaseFee } from '../../support/family-chains'

const G = 1_000_000_000n
const csv = (...lines: string[]) => lines.join('\n') + '\n'

/** A window walked by Ethereum's rule (limit 30M gas) from 20 gwei: `used` gas per block, pseudo-random unless given. */
function series(n: number, used?: (i: number) => number) {
  let seed = 7
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  const gasUsed = Array.from({ length: n }, (_, i) => used?.(i) ?? Math.round(random() * 30_000_000))
  const baseFees = [20n * G]
  for (let i = 1; i < n; i++) baseFees.push(nextBaseFee(baseFees[i - 1]!, gasUsed[i - 1]! / 30_000_000))
  return { gasUsed, baseFees }
}

describe('readBaseFeeCsv', () => {
  test('default: columns found by name in any order, other columns ignored', () => {
    const w = readBaseFeeCsv(
      csv('note,basefee_wei,basefee_gwei,block_number,timestamp', 'a,1000,0.000001,100,1700000000', 'b,1100,0.0000011,101,1700000012'),
    )
    expect(w.numbers).toEqual([100, 101])
    expect(w.baseFees).toEqual([1000n, 1100n])
    expect(w.timestamps).toEqual([1_700_000_000, 1_700_000_012])
    expect(w.intervalMs).toBe(12_000)
    expect(w.intervalSource).toBe('timestamps')
  })

  test('args: block numbers and base fees in decimal or 0x hex, any case, CRLF line ends', () => {
    const w = readBaseFeeCsv('block_number,basefee_wei\r\n0x1062560,0x3B9ACA00\r\n17180001,1000000001\r\n')
    expect(w.numbers).toEqual([17_180_000, 17_180_001])
    expect(w.baseFees).toEqual([G, G + 1n])
  })

  test.each([
    ['unix seconds', ['1683121751', '1683121763', '1683121787']],
    ['YYYY-MM-DD HH:MM:SS in UTC', ['2023-05-03 13:49:11', '2023-05-03 13:49:23', '2023-05-03 13:49:47']],
  ])('args: timestamps as %s', (_, [a, b, c]) => {
    const w = readBaseFeeCsv(csv('timestamp,basefee_wei,block_number', `${a},1,1`, `${b},1,2`, `${c},1,3`))
    expect(w.timestamps).toEqual([1_683_121_751, 1_683_121_763, 1_683_121_787])
    // the mean gap between consecutive blocks, as the service measures its interval: (12 + 24) / 2 s
    expect(w.intervalMs).toBe(18_000)
  })

  test('behavior: without timestamps the interval is 12 s, and says so', () => {
    const w = readBaseFeeCsv(csv('block_number,basefee_wei', '1,5', '2,5'))
    expect(w.timestamps).toBeNull()
    expect([w.intervalMs, w.intervalSource]).toEqual([DEFAULT_INTERVAL_MS, 'default'])
    expect(DEFAULT_INTERVAL_MS).toBe(12_000)
  })

  test('behavior: rows are sorted by block number; a block repeated with the same base fee counts once', () => {
    const w = readBaseFeeCsv(csv('block_number,basefee_wei,timestamp', '12,30,36', '10,10,12', '11,20,24', '10,10,12'))
    expect(w.numbers).toEqual([10, 11, 12])
    expect(w.baseFees).toEqual([10n, 20n, 30n])
    expect(w.timestamps).toEqual([12, 24, 36])
  })

  test('behavior: a missing block splits the window; the interval skips the gap', () => {
    const w = readBaseFeeCsv(csv('block_number,basefee_wei,timestamp', '1,10,0', '2,10,12', '4,10,100', '5,10,112'))
    expect(w.numbers).toEqual([1, 2, 4, 5])
    expect(consecutiveRuns(w)).toEqual([
      [10n, 10n],
      [10n, 10n],
    ])
    expect(w.intervalMs).toBe(12_000)
  })

  test('behavior: no forecast trial spans a gap', () => {
    const { baseFees } = series(240)
    const body = baseFees.map((b, i) => `${i < 120 ? i : i + 1},${b}`)
    const gapped = readBaseFeeCsv(csv('block_number,basefee_wei', ...body))
    const whole = readBaseFeeCsv(csv('block_number,basefee_wei', ...baseFees.map((b, i) => `${i},${b}`)))
    const run = (w: typeof whole) => forecastBacktest(w, chainFeePolicy(1), { lags: [0], history: 100 }).trials
    // a run of L blocks holds L − history trials (the history, then the next block)
    expect(run(gapped)).toBe(20 + 20)
    expect(run(whole)).toBe(140)
  })

  test('behavior: without gas columns, gas used follows from the next base fee by the EIP-1559 rule, exactly', () => {
    const { gasUsed, baseFees } = series(300)
    const w = readBaseFeeCsv(csv('block_number,basefee_wei', ...baseFees.map((b, i) => `${1000 + i},${b}`)))
    expect(w.gasUsedSource).toBe('next-base-fee')
    // every block but the last (its next base fee is not in the file)
    expect(w.gasUsedRatio.at(-1)).toBeNull()
    const derived = w.gasUsedRatio.slice(0, -1).map((r) => Math.round(r! * 30_000_000))
    expect(derived).toEqual(gasUsed.slice(0, -1))
  })

  test('behavior: an empty block, a full one and one at target give 0, 1 and ½ of the limit', () => {
    const { baseFees } = series(4, (i) => [0, 30_000_000, 15_000_000, 0][i]!)
    const w = readBaseFeeCsv(csv('block_number,basefee_wei', ...baseFees.map((b, i) => `${i},${b}`)))
    expect(w.gasUsedRatio).toEqual([0, 1, 0.5, null])
  })

  test('behavior: with gas_used and gas_limit, those give the ratio', () => {
    const w = readBaseFeeCsv(csv('gas_limit,block_number,gas_used,basefee_wei', '30000000,1,7500000,100', '30000000,2,30000000,999'))
    expect(w.gasUsedSource).toBe('columns')
    expect(w.gasUsedRatio).toEqual([0.25, 1])
  })

  test('behavior: a step the rule cannot produce, or a chain without the rule, leaves gas used unknown', () => {
    const w = readBaseFeeCsv(csv('block_number,basefee_wei', '1,100', '2,200', '3,200'))
    expect(w.gasUsedRatio).toEqual([null, 0.5, null])
    const other = readBaseFeeCsv(csv('block_number,basefee_wei', '1,100', '2,100'), { rule: null })
    expect([other.gasUsedSource, other.gasUsedRatio]).toEqual(['unknown', [null, null]])
  })

  test("args: ethereum-etl's and JSON-RPC's column names; quoted cells", () => {
    const etl = readBaseFeeCsv(
      csv(
        'number,hash,gas_limit,gas_used,timestamp,base_fee_per_gas,withdrawals',
        '15534142,0xab,30000000,5341868,1663175464,11772309785,',
      ),
    )
    expect([etl.numbers, etl.baseFees, etl.gasUsedRatio, etl.timestamps]).toEqual([
      [15_534_142],
      [11_772_309_785n],
      [5_341_868 / 30_000_000],
      [1_663_175_464],
    ])
    const rpc = readBaseFeeCsv(
      csv(',blockNumber,gasLimit,gasUsed,baseFeePerGas,transactions', `0,15627832,30000000,21748841,7046029587,"['0x21', '0x96']"`),
    )
    expect([rpc.numbers, rpc.baseFees, rpc.gasUsedSource]).toEqual([[15_627_832], [7_046_029_587n], 'columns'])
    const quoted = readBaseFeeCsv(csv('"block_number","basefee_wei","note"', '"7","70","say ""hi"", twice"'))
    expect([quoted.numbers, quoted.baseFees]).toEqual([[7], [70n]])
  })

  test.each([
    ['no block number column', csv('timestamp,basefee_wei', '1,1'), /^no block_number column \(header line: "timestamp,basefee_wei"\)$/],
    ['no base fee column', csv('block_number,timestamp', '1,1'), /^no basefee_wei column/],
    ['an empty file', '', /^empty file/],
    ['a header and no blocks', csv('block_number,basefee_wei'), /^no blocks after the header line$/],
    [
      'a bad number',
      csv('block_number,basefee_wei', '1,100', '2,1.5e9'),
      /^line 3: basefee_wei "1.5e9" is not a decimal or 0x-hex integer$/,
    ],
    ['a bad block number', csv('block_number,basefee_wei', 'x7,100'), /^line 2: block_number "x7" is not/],
    ['an empty base fee', csv('block_number,basefee_wei', '1,100', '', '3,'), /^line 4: empty basefee_wei$/],
    ['a short line', csv('basefee_wei,note,block_number', '1,a'), /^line 2: 2 cells, fewer than the header's 3$/],
    [
      'a bad timestamp',
      csv('block_number,basefee_wei,timestamp', '1,1,2023-02-30 00:00:00'),
      /^line 2: timestamp "2023-02-30 00:00:00" is not a valid/,
    ],
    [
      'a block repeated with another base fee',
      csv('block_number,basefee_wei', '5,100', '6,1', '5,101'),
      /^line 4: block 5 again with another base fee \(101 wei; 100 wei on line 2\)$/,
    ],
    ['an unterminated quote', csv('block_number,basefee_wei', '1,"100'), /^line 2: unterminated quoted cell/],
  ])('error: %s', (_, text, message) => {
    expect(() => readBaseFeeCsv(text)).toThrow(BaseFeeCsvError)
    expect(() => readBaseFeeCsv(text)).toThrow(message)
  })

  test('error: names the line of a bad cell', () => {
    try {
      readBaseFeeCsv(csv('block_number,basefee_wei', '1,1', '2,2', '3,three'))
      expect.unreachable()
    } catch (err) {
      expect(err).toMatchObject({ name: 'BaseFeeCsvError', line: 4 })
    }
  })
})
