import { createServer, type Server } from 'node:http'

export type CountingProxy = {
  url: string
  /** JSON-RPC calls forwarded, by method; '<http>' counts HTTP requests (a batch is one). */
  counts(): Record<string, number>
  reset(): void
  /** Holds every answer this long before forwarding it, ms (a slow provider); 0 by default. */
  delayMs: number
  close(): Promise<void>
}

/**
 * A JSON-RPC proxy on loopback that forwards to `target` and counts the calls by method (a batch
 * counts each call in it). Also answers `GET /__counts` (JSON) and `POST /__reset`, so another
 * process (a test worker, the benchmark) can read the counts.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  let counts: Record<string, number> = {}
  const options = { delayMs: 0 }
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/__counts') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts))
      return
    }
    if (req.method === 'POST' && req.url === '/__reset') {
      counts = {}
      res.writeHead(204).end()
      return
    }
    let body = ''
    for await (const chunk of req) body += chunk
    counts['<http>'] = (counts['<http>'] ?? 0) + 1
    try {
      const parsed = JSON.parse(body) as { method?: string } | { method?: string }[]
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
        const m = String(call.method)
        counts[m] = (counts[m] ?? 0) + 1
      }
    } catch {
      counts['<invalid>'] = (counts['<invalid>'] ?? 0) + 1
    }
    if (options.delayMs > 0) await new Promise((r) => setTimeout(r, options.delayMs))
    try {
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
      res.end(Buffer.from(await upstream.arrayBuffer()))
    } catch {
      res.writeHead(502).end()
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return {
    url,
    counts: () => ({ ...counts }),
    reset: () => {
      counts = {}
    },
    get delayMs() {
      return options.delayMs
    },
    set delayMs(ms: number) {
      options.delayMs = ms
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}
