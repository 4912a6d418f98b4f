/** A minimal JSON-RPC client for driving the devnet (batches in one HTTP request). */
export type RpcCall = { method: string; params: unknown[] }
export type RpcResult = { result?: unknown; error?: { code: number; message: string } }

export async function rpcBatch(url: string, calls: RpcCall[]): Promise<RpcResult[]> {
  if (calls.length === 0) return []
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, ...c }))),
  })
  const body = (await res.json()) as (RpcResult & { id: number })[]
  const out: RpcResult[] = []
  for (const item of body) out[item.id] = item
  return out
}

export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const [r] = await rpcBatch(url, [{ method, params }])
  if (!r) throw new Error(`${method}: no answer`)
  if (r.error) throw new Error(`${method}: ${r.error.message}`)
  return r.result as T
}
