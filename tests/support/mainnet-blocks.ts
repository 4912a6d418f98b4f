import { readBlocksWithTransactions } from '@/lib/fees/recording'
import type { FakeBlock } from './fake-rpc'
import { nextBaseFee, readText } from './shared-data'

/**
 * The real 100-block mainnet window (15,627,832–15,627,931) as fake-chain blocks, read by the
 * library's own reader: base fees, fullness and every transaction's effective tip; timestamps on a
 * slot grid (12 s by default; the dataset has none).
 */
export function mainnetFakeChain(slotSeconds = 12): { blocks: FakeBlock[]; nextBaseFee: bigint } {
  const dir = 'eth-mainnet-100blocks-txs-15627832'
  const { blocks } = readBlocksWithTransactions(readText(dir, 'blockData.csv.gz'), readText(dir, 'transactionData.csv.gz'))
  const last = blocks[blocks.length - 1]
  return {
    blocks: blocks.map((b, i) => ({
      number: b.number,
      timestamp: 1_664_400_000 + i * slotSeconds,
      baseFee: BigInt(b.baseFeePerGas),
      gasUsedRatio: b.gasUsed / b.gasLimit,
      tips: (b.txs ?? []).map((t) => BigInt(t.tip)),
    })),
    nextBaseFee: nextBaseFee(BigInt(last.baseFeePerGas), BigInt(last.gasUsed), BigInt(last.gasLimit)),
  }
}
