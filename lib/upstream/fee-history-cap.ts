import 'server-only'
import type { Client } from 'viem'
import { processSingleton } from '../runtime/process-singleton'

/** Per URL, the eth_feeHistory cap a node named in refusing more (most nodes answer fewer blocks instead). */
const caps = processSingleton('fee-history-caps', () => new Map<string, number>())

/**
 * The cap a node's JSON-RPC refusal names (its error's `details`, never a transport error's text, which holds the
 * request): the largest whole number in it under `asked`, when it speaks of blocks or limits.
 * @example capFromRefusal(Object.assign(new Error('RPC error'), { code: -32602, details: 'block count 500 exceeds the maximum of 100' }), 500) // 100
 */
export function capFromRefusal(err: unknown, asked: number): number | undefined {
  let e: unknown = err
  for (let depth = 0; e instanceof Error && depth < 5 && !isRpcRefusal(e); depth++) e = e.cause
  if (!isRpcRefusal(e) || !/block|range|count|max|limit|exceed/i.test(e.details)) return undefined
  const below = [...e.details.matchAll(/(?<![\w.-])\d{1,7}(?!\w|\.\d)/g)].map((m) => Number(m[0])).filter((n) => n >= 1 && n < asked)
  return below.length ? Math.max(...below) : undefined
}

const isRpcRefusal = (e: unknown): e is Error & { code: number; details: string } =>
  e instanceof Error && typeof (e as { code?: unknown }).code === 'number' && typeof (e as { details?: unknown }).details === 'string'

/** eth_feeHistory of the newest `blockCount` blocks, or of as many as this URL's learned cap allows. */
export async function feeHistoryWithinCap(
  client: Client,
  url: string,
  blockCount: number,
  rewardPercentiles: readonly number[],
): Promise<unknown> {
  const ask = (count: number) =>
    client.request({ method: 'eth_feeHistory', params: [`0x${count.toString(16)}`, 'latest', [...rewardPercentiles]] })
  const count = Math.min(blockCount, caps.get(url) ?? blockCount)
  try {
    return await ask(count)
  } catch (err) {
    const cap = capFromRefusal(err, count)
    if (cap === undefined) throw err
    const answer = await ask(cap)
    caps.set(url, cap)
    return answer
  }
}
