import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import {
  fromJsonLines,
  readBlocksWithTransactions,
  readEthEtlBlocks,
  readFeeHistory,
  recordBlock,
  type Recording,
} from '../record/recording'

/** The recorded real data beside the checkout (../shared/data), never copied into the repo. */
const DEFAULT_SHARED_DATA = join(process.cwd(), '..', 'shared', 'data')

const text = (file: string) => {
  const raw = readFileSync(file)
  return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')
}

/** Every dataset of shared/data as a Recording (see shared/data/README.md for their sources). */
export function loadSharedDatasets(root = DEFAULT_SHARED_DATA): { name: string; recording: Recording }[] {
  if (!existsSync(root)) throw new Error(`no shared data at ${root}`)
  const out: { name: string; recording: Recording }[] = []
  const d1 = join(root, 'eth-mainnet-blocks-15533942-15535581')
  out.push({
    name: 'mainnet-1640-blocks',
    recording: readEthEtlBlocks(text(join(d1, 'blocks.csv.gz')), 1, 'eth-mainnet-blocks-15533942-15535581'),
  })
  const d2 = join(root, 'eth-mainnet-100blocks-txs-15627832')
  out.push({
    name: 'mainnet-100-blocks-txs',
    recording: readBlocksWithTransactions(
      text(join(d2, 'blockData.csv.gz')),
      text(join(d2, 'transactionData.csv.gz')),
      1,
      'eth-mainnet-100blocks-txs-15627832',
    ),
  })
  const polygon = JSON.parse(text(join(root, 'polygon-pos-feehistory-1024blk', 'fee_history.json')))
  out.push({
    name: 'polygon-1024-feehistory',
    recording: readFeeHistory(polygon.result, [50], {
      chainId: 137,
      source: 'polygon-pos-feehistory-1024blk',
      nominalBlockIntervalMs: 2_000,
    }),
  })
  out.push(...loadErigonFixtures(join(root, 'erigon-rpc-tests-fixtures', 'integration')))
  return out
}

const CHAIN_IDS: Record<string, { id: number; intervalMs: number }> = {
  mainnet: { id: 1, intervalMs: 12_000 },
  gnosis: { id: 100, intervalMs: 5_000 },
  'arb-sepolia': { id: 421614, intervalMs: 250 },
}

/** The erigon rpc-tests fixtures: each eth_feeHistory answer, and each full block (with its receipts when present). */
export function loadErigonFixtures(root: string): { name: string; recording: Recording }[] {
  const out: { name: string; recording: Recording }[] = []
  for (const network of readdirSync(root)) {
    const chain = CHAIN_IDS[network] ?? { id: 0, intervalMs: 12_000 }
    const dir = (m: string) => join(root, network, m)
    const receipts = new Map<string, unknown[]>()
    if (existsSync(dir('eth_getBlockReceipts'))) {
      for (const f of readdirSync(dir('eth_getBlockReceipts'))) {
        const [{ request, response }] = JSON.parse(text(join(dir('eth_getBlockReceipts'), f)))
        if (Array.isArray(response?.result)) receipts.set(String(request.params[0]).toLowerCase(), response.result)
      }
    }
    if (existsSync(dir('eth_feeHistory'))) {
      for (const f of readdirSync(dir('eth_feeHistory')).sort()) {
        const [{ request, response }] = JSON.parse(text(join(dir('eth_feeHistory'), f)))
        if (!response?.result?.gasUsedRatio?.length) continue // fixtures without a fixed result
        const name = `erigon-${network}-feehistory-${f.replace('.json', '')}`
        out.push({
          name,
          recording: readFeeHistory(response.result, request.params[2] ?? [], {
            chainId: chain.id,
            source: name,
            nominalBlockIntervalMs: chain.intervalMs,
          }),
        })
      }
    }
    if (existsSync(dir('eth_getBlockByNumber'))) {
      for (const f of readdirSync(dir('eth_getBlockByNumber')).sort()) {
        const [{ response }] = JSON.parse(text(join(dir('eth_getBlockByNumber'), f)))
        const block = response?.result
        if (!block?.baseFeePerGas || !Array.isArray(block.transactions) || typeof block.transactions[0] === 'string') continue
        const name = `erigon-${network}-block-${Number(block.number)}`
        const rs = receipts.get(String(block.number).toLowerCase()) as Parameters<typeof recordBlock>[1]
        out.push({
          name,
          recording: {
            header: {
              format: 'gas-api-blocks/1',
              chainId: chain.id,
              source: name,
              tipData: 'full',
              nominalBlockIntervalMs: chain.intervalMs,
            },
            blocks: [recordBlock(block, rs)],
          },
        })
      }
    }
  }
  return out
}

/** A recording file: JSON lines (gas-api-blocks/1), optionally gzipped. */
export function loadRecording(file: string): Recording {
  return fromJsonLines(text(file))
}
