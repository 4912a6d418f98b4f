import { createClient, http, type Client } from 'viem'
import { UpstreamUnavailableError } from '../core/contract/errors'
import { processSingleton } from '../runtime/process-singleton'
import { classifyRpcError, UNAVAILABLE_HTTP_STATUSES } from './classify-error'

const clients = processSingleton('rpc-clients', () => new Map<string, Client>())

/**
 * A viem client for one RPC URL. `batch: true` sends the calls made in one tick as one JSON-RPC
 * batch (one HTTP round trip); retries are ours (failover in readFeeWindow), so viem's are off.
 * viem's own timeout stops at the response headers, so every fetch also carries an abort signal
 * that covers reading the body (and the peek at a batch's answer): a node that stalls cannot hold a read.
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
        fetchFn: async (input, init) => {
          const deadline = AbortSignal.timeout(timeoutMs)
          const response = await fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline })
          await refuseUnavailable(response, init?.body)
          return response
        },
      }),
    })
    clients.set(id, client)
  }
  return client
}

/** The most of a batch's answer read here to tell one error object from the answers (an error object is small). */
const ERROR_PEEK_BYTES = 65_536

/**
 * A provider's overload or rate limit, whatever its body (viem reads a batch answered by one error object as no answers).
 * @throws UpstreamUnavailableError for HTTP 429, 502, 503, 504 or a batch's single rate-limit error
 */
async function refuseUnavailable(response: Response, body: unknown): Promise<void> {
  if (UNAVAILABLE_HTTP_STATUSES.includes(response.status)) {
    await response.body?.cancel().catch(() => {})
    throw new UpstreamUnavailableError(`The upstream node is unavailable (HTTP ${response.status}).`)
  }
  if (typeof body !== 'string' || !body.startsWith('[') || !response.ok) return
  const text = await errorObjectText(response.clone())
  if (text === undefined) return
  let error: { code?: unknown; message?: unknown } | undefined
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error
  } catch {
    return // viem says what is wrong with it
  }
  const classified =
    typeof error?.code === 'number' ? classifyRpcError(Object.assign(new Error(String(error.message)), { code: error.code })) : undefined
  if (!(classified instanceof UpstreamUnavailableError)) return
  response.body?.cancel().catch(() => {})
  throw classified
}

/** The body when it is one JSON object of at most ERROR_PEEK_BYTES (else undefined, the rest left unread). */
async function errorObjectText(copy: Response): Promise<string | undefined> {
  const reader = copy.body?.getReader()
  if (!reader) return undefined
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
      const first = chunks.flatMap((c) => [...c.subarray(0, 64)]).find((byte) => ![0x20, 0x09, 0x0a, 0x0d].includes(byte))
      if ((first !== undefined && first !== 0x7b) || size > ERROR_PEEK_BYTES) return undefined
    }
  } finally {
    // not awaited: a tee's branch settles its cancel only once the other branch (viem's read of the answer) ends too
    reader.cancel().catch(() => {})
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}
