import { readBlocksWithTransactions } from '@/scripts/record/recording'
import type { FakeBlock } from './fake-rpc'
import { HAS_SHARED_DATA, nextBaseFee, readText } from './shared-data'

/**
 * The real 100-block mainnet window (15,627,832–15,627,931) as fake-chain blocks, read by the
 * library's own reader: base fees, fullness and every transaction's effective tip; timestamps on a
 * slot grid (12 s by default; the dataset has none).
 */
export function mainnetFakeChain(slotSeconds = 12): { blocks: FakeBlock[]; nextBaseFee: bigint } {
  const dir = 'eth-mainnet-100blocks-txs-15627832'
  const { blocks } = readBlocksWithTransactions(readText(dir, 'blockData.csv.gz'), readText(dir, 'transactionData.csv.gz'))
  const last = blocks.at(-1)
  if (!last) throw new Error(`${dir}: no blocks`)
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

/**
 * The chain the integration and browser suites' fake nodes serve: the real mainnet window when
 * ../shared/data is there; without it, 100 synthetic blocks (a base fee walking by the EIP-1559
 * rule from 20 gwei, tips of 1–3 gwei), which those suites' assertions do not depend on.
 */
export function fakeNodeChain(slotSeconds = 12): { blocks: FakeBlock[]; nextBaseFee: bigint } {
  if (HAS_SHARED_DATA) return mainnetFakeChain(slotSeconds)
  const blocks: FakeBlock[] = []
  let baseFee = 20_000_000_000n
  const gasLimit = 30_000_000n
  for (let i = 0; i < 100; i++) {
    const gasUsedRatio = [0.3, 0.5, 0.7, 1][i % 4] ?? 0.5
    blocks.push({
      number: 15_627_832 + i,
      timestamp: 1_664_400_000 + i * slotSeconds,
      baseFee,
      gasUsedRatio,
      tips: [1_000_000_000n, 2_000_000_000n, 3_000_000_000n],
    })
    baseFee = nextBaseFee(baseFee, BigInt(Math.round(gasUsedRatio * Number(gasLimit))), gasLimit)
  }
  return { blocks, nextBaseFee: baseFee }
}
