import { describe, expect, test } from 'vitest'
import {
  BLOB_SCHEDULES,
  blobForkAt,
  blobScheduleOf,
  DEVNET_BLOB_SCHEDULE,
  GAS_PER_BLOB,
  NO_BLOB_CHAINS,
  type BlobSchedule,
} from '@/lib/core/chain-rules/blob-schedule'

const schedule = (chainId: number): BlobSchedule => {
  const s = blobScheduleOf(chainId)
  if (s === null || s === 'unknown') throw new Error(`no schedule for ${chainId}`)
  return s
}

describe('blobForkAt', () => {
  // activation times: EIP-7569, EIP-7600, EIP-7607 (and go-ethereum params/config.go)
  test.each([
    [1, 1_710_338_134, undefined, undefined],
    [1, 1_710_338_135, 'Cancun', [3, 6, 3_338_477n, false]],
    [1, 1_746_612_310, 'Cancun', [3, 6, 3_338_477n, false]],
    [1, 1_746_612_311, 'Prague', [6, 9, 5_007_716n, false]],
    [1, 1_764_798_551, 'Osaka', [6, 9, 5_007_716n, true]],
    [1, 1_765_290_070, 'Osaka', [6, 9, 5_007_716n, true]],
    [1, 1_765_290_071, 'BPO1', [10, 15, 8_346_193n, true]],
    [1, 1_767_747_670, 'BPO1', [10, 15, 8_346_193n, true]],
    [1, 1_767_747_671, 'BPO2', [14, 21, 11_684_671n, true]],
    [1, 2_000_000_000, 'BPO2', [14, 21, 11_684_671n, true]],
    [11155111, 1_706_655_071, undefined, undefined],
    [11155111, 1_706_655_072, 'Cancun', [3, 6, 3_338_477n, false]],
    [11155111, 1_741_159_776, 'Prague', [6, 9, 5_007_716n, false]],
    [11155111, 1_760_427_360, 'Osaka', [6, 9, 5_007_716n, true]],
    [11155111, 1_761_017_184, 'BPO1', [10, 15, 8_346_193n, true]],
    [11155111, 1_761_607_008, 'BPO2', [14, 21, 11_684_671n, true]],
    [560048, 0, 'Cancun', [3, 6, 3_338_477n, false]],
    [560048, 1_742_999_832, 'Prague', [6, 9, 5_007_716n, false]],
    [560048, 1_762_955_544, 'BPO2', [14, 21, 11_684_671n, true]],
    // BNB Smart Chain: Cancun's numbers since Haber, through its Prague and Osaka, without EIP-7918
    [56, 1_718_863_499, undefined, undefined],
    [56, 1_718_863_500, 'Cancun', [3, 6, 3_338_477n, false]],
    [56, 1_777_343_400, 'Cancun', [3, 6, 3_338_477n, false]],
  ] as const)('chain %i at %i: %s', (chainId, timestamp, name, params) => {
    const fork = blobForkAt(schedule(chainId), timestamp)
    expect(fork?.name).toBe(name)
    if (params) {
      const [target, max, updateFraction, reservePrice] = params
      expect(fork?.params).toEqual({ target, max, updateFraction })
      expect(fork?.reservePrice).toBe(reservePrice)
    }
  })

  test('default: every schedule is in order of activation', () => {
    for (const s of [...Object.values(BLOB_SCHEDULES), DEVNET_BLOB_SCHEDULE]) {
      const times = s.map((f) => f.activatesAt)
      expect(times).toEqual([...times].sort((a, b) => a - b))
    }
  })
})

describe('blobScheduleOf', () => {
  test.each([
    [1, 'schedule'],
    [11155111, 'schedule'],
    [56, 'schedule'],
    [560048, 'schedule'],
    [10, null],
    [8453, null],
    [137, null],
    [42161, null],
    [59144, null],
    [43114, null],
    [31337, 'unknown'],
    [777, 'unknown'],
  ] as const)('chain %i: %s', (chainId, expected) => {
    const s = blobScheduleOf(chainId)
    expect(s === null || s === 'unknown' ? s : 'schedule').toBe(expected)
  })

  test('default: no chain is in both tables', () => {
    for (const id of Object.keys(NO_BLOB_CHAINS)) expect(Object.hasOwn(BLOB_SCHEDULES, id)).toBe(false)
  })
})

describe('the forks: a full block raises the blob base fee by e^((max − target) × GAS_PER_BLOB / fraction)', () => {
  // EIP-4844: "a maximum change rate of e**(TARGET_BLOB_GAS_PER_BLOCK / BLOB_BASE_FEE_UPDATE_FRACTION) ≈
  // 1.125 per block"; EIP-7691 and the BPO forks keep the rise near 8.2% a block (their fractions scale
  // with max − target)
  test.each([
    ['Cancun', 1.125],
    ['Prague', 1.0817],
    ['Osaka', 1.0817],
    ['BPO1', 1.0817],
    ['BPO2', 1.0817],
  ])('%s: ×%d a full block', (name, factor) => {
    const fork = schedule(1).find((f) => f.name === name)!
    const rise = Math.exp((Number(GAS_PER_BLOB) * (fork.params.max - fork.params.target)) / Number(fork.params.updateFraction))
    expect(rise).toBeCloseTo(factor, 3)
  })

  test("devnets: anvil's default (Osaka's numbers, EIP-7918 on)", () => {
    expect(DEVNET_BLOB_SCHEDULE).toHaveLength(1)
    expect(DEVNET_BLOB_SCHEDULE[0]?.params).toEqual({ target: 6, max: 9, updateFraction: 5_007_716n })
    expect(DEVNET_BLOB_SCHEDULE[0]?.reservePrice).toBe(true)
  })
})
