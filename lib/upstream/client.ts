import { createClient, http, type Client } from 'viem'
import { processSingleton } from '../runtime/process-singleton'

const clients = processSingleton('rpc-clients', () => new Map<string, Client>())

/**
 * A viem client for one RPC URL. `batch: true` sends the calls made in one tick as one JSON-RPC
 * batch (one HTTP round trip); retries are ours (failover in readFeeWindow), so viem's are off.
 * viem's own timeout stops at the response headers, so every fetch also carries an abort signal
 * that covers reading the body: a node that sends headers and then stalls cannot hold a read.
 */
export function getRpcClient(url: string, timeoutMs: number): Client {
  const id = `${timeoutMs} ${url}`
  let client = clients.get(id)
  if (!client) {
    client = createClient({
      transport: http(url, {
        batch: true,
        timeout: timeoutMs,
        retryCount: 0,
        fetchFn: (input, init) => {
          const deadline = AbortSignal.timeout(timeoutMs)
          return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline })
        },
      }),
    })
    clients.set(id, client)
  }
  return client
}
