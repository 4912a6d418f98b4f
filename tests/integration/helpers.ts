import { expect, inject } from 'vitest'
import { formatGwei } from 'viem'
import { at } from '../support/at'
import { assertContract } from '../support/contract'

export { at }

export const ctx = () => inject('integration')

export const basic = ([key, secret]: readonly [string, string]) => `Basic ${Buffer.from(`${key}:${secret}`, 'utf8').toString('base64')}`

/** A parsed answer: the error body's fields when it is one; zod schemas narrow the rest. */
export type ApiBody = { statusCode?: number; error?: string; message?: string } & Record<string, unknown>

/** GET /metrics with the metrics bearer token (or the given Authorization header; null: none). */
export const metrics = (auth: string | null = `Bearer ${ctx().metricsToken}`) => api('/metrics', { auth })

/**
 * GET an API path with the plain test credentials (or the given Authorization header). Every answer,
 * errors included, is checked against GET /openapi.json (tests/support/contract.ts): one that breaks
 * it fails the test that received it.
 */
export async function api(path: string, init: { auth?: string | null; method?: string } = {}) {
  const c = ctx()
  const headers: Record<string, string> = {}
  const auth = init.auth === undefined ? basic(c.credentials.plain) : init.auth
  if (auth !== null) headers.authorization = auth
  const res = await fetch(`${c.api}${path}`, { method: init.method ?? 'GET', headers })
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  const method = init.method ?? 'GET'
  assertContract({ method, path, status: res.status, headers: res.headers, body })
  return { status: res.status, headers: res.headers, body: body as ApiBody }
}

async function nodeRpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(ctx().nodeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: T }).result
}

/**
 * The node's own eth_feeHistory for the 500 blocks ending at `block`, read directly (not through the
 * service). The next base fee is taken from block+1's header once it exists: anvil's eth_feeHistory
 * for an older newestBlock appends the CURRENT pending base fee, not that block's successor's.
 */
export async function nodeFeeHistory(block: number, percentiles: number[]) {
  const result = await nodeRpc<{ oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][] }>(
    'eth_feeHistory',
    ['0x1f4', `0x${block.toString(16)}`, percentiles],
  )
  let following: { baseFeePerGas: string } | null = null
  for (let i = 0; i < 50 && !following; i++) {
    following = await nodeRpc('eth_getBlockByNumber', [`0x${(block + 1).toString(16)}`, false])
    if (!following) await new Promise((r) => setTimeout(r, 100))
  }
  if (!following) throw new Error(`block ${block + 1} did not arrive`)
  return {
    oldestBlock: Number(result.oldestBlock),
    baseFees: result.baseFeePerGas.slice(0, -1).map(BigInt),
    next: BigInt(following.baseFeePerGas),
    ratios: result.gasUsedRatio,
    rewards: result.reward.map((r) => r.map(BigInt)),
  }
}

/** Independent oracle: viem's formatGwei and a plain nearest-rank percentile. */
export const gwei = (wei: bigint) => formatGwei(wei)
export function nearestRank(values: bigint[], p: number): bigint {
  const s = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return at(s, Math.max(1, Math.ceil((p / 100) * s.length)) - 1)
}

/**
 * Timestamps (unix seconds) of blocks from..to of the live devnet, read straight from the node in
 * one JSON-RPC batch.
 */
export async function nodeBlockTimestamps(from: number, to: number): Promise<Map<number, number>> {
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i)
  const res = await fetch(ctx().nodeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      numbers.map((n) => ({ jsonrpc: '2.0', id: n, method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })),
    ),
  })
  const answers = (await res.json()) as { id: number; result: { timestamp: string } | null }[]
  return new Map(answers.flatMap((a) => (a.result ? [[a.id, Number(a.result.timestamp)] as const] : [])))
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await probe()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

export async function proxyCounts(proxy: string): Promise<Record<string, number>> {
  return (await (await fetch(`${proxy}/__counts`)).json()) as Record<string, number>
}
export async function resetProxy(proxy: string) {
  await fetch(`${proxy}/__reset`, { method: 'POST' })
}

/**
 * Requests `path` until a 200 answer is current (not marked stale): a chain nobody asked about for a
 * while answers at once with its old window, marked stale, and reads behind it.
 */
export function currentAnswer(path: string) {
  return eventually(async () => {
    const res = await api(path)
    return res.status === 200 && res.headers.get('x-data-stale') === 'false' ? res : undefined
  }, `a current answer from ${path}`)
}

/**
 * Requests `path` until an answer is marked stale; every answer on the way must be a 200 (the last
 * window is served, never an error, while the node fails). Fails after `timeoutMs`.
 */
export function staleAnswer(path: string, what: string, timeoutMs: number) {
  return eventually(
    async () => {
      const res = await api(path)
      if (res.status !== 200) throw new Error(`${path} answered ${res.status} while waiting for ${what}`)
      return res.headers.get('x-data-stale') === 'true' ? res : undefined
    },
    what,
    timeoutMs,
  )
}

/** Breaks or mends the flaky chain's fake node (`ok`, `hang`, …: tests/support/fake-rpc.ts). */
export const setFlakyMode = (mode: string) => fetch(`${ctx().flakyNode}/__mode/${mode}`, { method: 'POST' })

/**
 * A current answer from `path` on the flaky chain; then, with its node hanging, the last window:
 * marked stale (no-store, a 110 Warning), the same block and the same body. Leaves the node hanging.
 */
export async function staleAfterHang(path: string, timeoutMs: number) {
  const fresh = await currentAnswer(path)
  await setFlakyMode('hang')
  const stale = await staleAnswer(path, 'a stale answer', timeoutMs)
  expect(stale.headers.get('cache-control')).toBe('no-store')
  expect(stale.headers.get('warning')).toMatch(/^110 /)
  expect(stale.headers.get('x-block-number')).toBe(fresh.headers.get('x-block-number'))
  expect(stale.body).toEqual(fresh.body)
  return { fresh, stale }
}
