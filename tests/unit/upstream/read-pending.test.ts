// The node's pending block as the pieces' tracker reads it, from a JSON-RPC server on loopback: the OP-stack
// deposits left out of the auction, and whether the block opens with one (what tells flashblocks from a devnet's pool).
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readPendingBlock } from '@/lib/upstream/read-pending'

const user = (hash: string, type?: string) => ({
  hash,
  ...(type === undefined ? {} : { type }),
  gas: '0x5208',
  maxFeePerGas: '0x3b9aca00',
  maxPriorityFeePerGas: '0xf4240',
})
const deposit = (hash: string) => ({ hash, type: '0x7e', gas: '0xf4240' })

let transactions: object[] = []
let server: Server
let url = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += String(d)))
    req.on('end', () => {
      const call = JSON.parse(body) as { id: number } | { id: number }[]
      const block = { number: '0x10', timestamp: '0x64', gasLimit: '0x1c9c380', gasUsed: '0x5208', baseFeePerGas: '0x64', transactions }
      const answer = ({ id }: { id: number }) => ({ jsonrpc: '2.0', id, result: block })
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(Array.isArray(call) ? call.map(answer) : answer(call)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('readPendingBlock', () => {
  test.each([
    ['a flashblocks piece: the deposit first, then a user transaction', [deposit('0xd1'), user('0xa1', '0x2')], true, ['0xa1']],
    ['a devnet pool: user transactions only (one without a type field)', [user('0xa1', '0x2'), user('0xa2')], false, ['0xa1', '0xa2']],
    ['a deposit that is not first does not open the block', [user('0xa1', '0x2'), deposit('0xd1')], false, ['0xa1']],
    ['an empty block', [], false, []],
  ])('behavior: %s', async (_, txs, opensWithDeposit, userHashes) => {
    transactions = txs
    const read = await readPendingBlock([url], 2_000)
    expect(read.deposit).toBe(opensWithDeposit)
    expect(read.txs.map((t) => t.hash)).toEqual(userHashes)
    // the deposit holds no auction; a user transaction's effective tip: min(1e6, 1e9 − 100)
    for (const t of read.txs) expect(t.tip).toBe('1000000')
  })
})
