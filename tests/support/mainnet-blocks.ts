import type { FakeBlock } from './fake-rpc'
import { nextBaseFee, readCsv } from './shared-data'

/**
 * The real 100-block mainnet window (15,627,832–15,627,931) as fake-chain blocks: base fees, fullness
 * and every transaction's effective tip; timestamps on a slot grid (12 s by default; the dataset has none).
 */
export function mainnetFakeChain(slotSeconds = 12): { blocks: FakeBlock[]; nextBaseFee: bigint } {
  const rows = readCsv('eth-mainnet-100blocks-txs-15627832', 'blockData.csv.gz')
    .map((r) => ({ n: Number(r.blockNumber), base: BigInt(r.baseFeePerGas), used: BigInt(r.gasUsed), limit: BigInt(r.gasLimit) }))
    .sort((a, b) => a.n - b.n)
  const tips = new Map<number, bigint[]>()
  for (const tx of readCsv('eth-mainnet-100blocks-txs-15627832', 'transactionData.csv.gz')) {
    const n = Number(tx.blockNumber)
    tips.set(n, [...(tips.get(n) ?? []), BigInt(tx.gasPrice)])
  }
  const blocks = rows.map((r, i) => ({
    number: r.n,
    timestamp: 1_664_400_000 + i * slotSeconds,
    baseFee: r.base,
    gasUsedRatio: Number(r.used) / Number(r.limit),
    tips: (tips.get(r.n) ?? []).map((p) => p - r.base),
  }))
  const last = rows[rows.length - 1]
  return { blocks, nextBaseFee: nextBaseFee(last.base, last.used, last.limit) }
}
