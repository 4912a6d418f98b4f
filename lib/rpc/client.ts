import { createClient, http, type Client } from 'viem'

const clients = new Map<string, Client>()

/**
 * A viem client for one RPC URL. `batch: true` sends the calls made in one tick as one JSON-RPC
 * batch (one HTTP round trip); retries are ours (failover in readFeeWindow), so viem's are off.
 */
export function getRpcClient(url: string, timeoutMs: number): Client {
  const id = `${timeoutMs} ${url}`
  let client = clients.get(id)
  if (!client) {
    client = createClient({ transport: http(url, { batch: true, timeout: timeoutMs, retryCount: 0 }) })
    clients.set(id, client)
  }
  return client
}
