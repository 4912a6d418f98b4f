import { describe, expect, test } from 'vitest'
import { readBaseFeeCsv } from '@/scripts/backtest/base-fee-csv'
import { loadBaseFeeCsv, loadSharedBaseFeeWindows } from '@/scripts/backtest/datasets'
import { consecutiveRuns } from '@/scripts/backtest/forecast-trials'
import { readText, SHARED_DATA, sharedDataPath } from '../../support/shared-data'

/** The real base-fee windows of ../shared/data load as CSV windows, with what its README states of each. */
describe('CSV base-fee windows of shared/data', () => {
  test.each([
    ['eth-mainnet-basefee-spikes-2022-2023', 'may_2023_pepe_crisis_data.csv.gz', 14_651, 17_180_000, 17_194_650],
    ['eth-mainnet-basefee-spikes-2022-2023', 'real_july_2022_spike_data.csv.gz', 9_901, 15_055_000, 15_064_900],
    ['eth-mainnet-blocks-15533942-15535581', 'blocks.csv.gz', 1_640, 15_533_942, 15_535_581],
  ])('default: %s/%s has %i consecutive blocks %i–%i', (dir, file, blocks, first, last) => {
    const w = loadBaseFeeCsv(sharedDataPath(dir, file))
    expect(w.numbers.length).toBe(blocks)
    expect([w.numbers[0], w.numbers.at(-1)]).toEqual([first, last])
    expect(consecutiveRuns(w)).toHaveLength(1)
    expect(w.intervalSource).toBe('timestamps')
    // every step is within EIP-1559's ±12.5%: each block's gas used follows from the next base fee
    if (file !== 'blocks.csv.gz') {
      expect(w.gasUsedSource).toBe('next-base-fee')
      expect(w.gasUsedRatio.filter((r) => r === null)).toHaveLength(1)
    }
  })

  test('behavior: the interval is the mean gap: 12 s slots and a few missed ones (May 2023), irregular ~13 s blocks before the Merge (July 2022)', () => {
    const dir = 'eth-mainnet-basefee-spikes-2022-2023'
    const may = loadBaseFeeCsv(sharedDataPath(dir, 'may_2023_pepe_crisis_data.csv.gz')).intervalMs
    expect(may).toBeGreaterThanOrEqual(12_000)
    expect(may).toBeLessThan(12_300)
    // the median gap would say 9 s here: proof-of-work blocks come at exponential-like intervals
    const july = loadBaseFeeCsv(sharedDataPath(dir, 'real_july_2022_spike_data.csv.gz')).intervalMs
    expect(july).toBeGreaterThan(12_500)
    expect(july).toBeLessThan(14_500)
  })

  test("behavior: ethereum-etl's unsorted blocks come sorted; gas used derived from the next base fee matches the file's gas columns", () => {
    const path = ['eth-mainnet-blocks-15533942-15535581', 'blocks.csv.gz'] as const
    const w = loadBaseFeeCsv(sharedDataPath(...path))
    expect(w.numbers).toEqual(Array.from({ length: 1_640 }, (_, i) => 15_533_942 + i))
    expect(w.gasUsedSource).toBe('columns')
    // the same file without its gas_used column: the ratio from the next base fee, 1,639 of 1,640 blocks
    const derived = readBaseFeeCsv(readText(...path).replace(/^(.*?)\bgas_used\b/, '$1ignored'))
    const known = derived.gasUsedRatio.flatMap((r, i) => (r === null ? [] : [[r, w.gasUsedRatio[i]!]]))
    expect(known).toHaveLength(1_639)
    for (const [fromNext, fromColumns] of known) expect(Math.abs(fromNext! - fromColumns!)).toBeLessThan(1e-6)
  })

  test('behavior: quoted cells (camcos lists every transaction hash in one quoted cell)', () => {
    const w = loadBaseFeeCsv(sharedDataPath('eth-mainnet-100blocks-txs-15627832', 'blockData.csv.gz'))
    expect([w.numbers.length, w.numbers[0], w.gasUsedSource, w.intervalSource]).toEqual([100, 15_627_832, 'columns', 'default'])
  })

  test('default: npm run backtest -- shared reads the four real windows for the forecast (Polygon from its eth_feeHistory: 1,024 blocks and the next)', () => {
    const windows = loadSharedBaseFeeWindows(SHARED_DATA)
    expect(windows.map((w) => [w.name, w.chainId, w.window.numbers.length])).toEqual([
      ['mainnet-spike-july-2022', 1, 9_901],
      ['mainnet-spike-may-2023', 1, 14_651],
      ['mainnet-1640-blocks', 1, 1_640],
      ['polygon-1024-feehistory', 137, 1_025],
    ])
  })
})
