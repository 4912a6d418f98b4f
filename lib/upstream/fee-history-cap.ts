import 'server-only'
import type { Client } from 'viem'
import { processSingleton } from '../runtime/process-singleton'

/** Per URL, the eth_feeHistory cap a node named in refusing more (most nodes answer fewer blocks instead). */
const caps = processSingleton('fee-history-caps', () => new Map<string, number>())

/**
 * The cap a refusal names: the largest whole number in its messages under `asked`, when they speak of blocks or limits.
 * @example capFromRefusal(new Error('block count 500 exceeds the maximum of 100'), 500) // 100
 */
export function capFromRefusal(err: unknown, asked: number): number | undefined {
  const texts: string[] = []
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    texts.push(e.message, String((e as { details?: unknown }).details ?? ''))
  const text = texts.join(' ')
  if (!/block|range|count|max|limit|exceed/i.test(text)) return undefined
  const below = [...text.matchAll(/(?<![\w.-])\d{1,7}(?!\w|\.\d)/g)].map((m) => Number(m[0])).filter((n) => n >= 1 && n < asked)
  return below.length ? Math.max(...below) : undefined
}

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
