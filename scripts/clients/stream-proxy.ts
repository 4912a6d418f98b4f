/** Where the Gas API is and the API key to ask it with. */
export type GasApi = { url: string; apiKey: string; apiSecret: string }

/** HTTP Basic credentials (RFC 7617, UTF-8): `Basic base64(key:secret)`. */
const basicAuth = (apiKey: string, apiSecret: string) =>
  `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${apiKey}:${apiSecret}`)))}`

/**
 * A same-origin proxy for the Gas API's stream, for your own server (a Next.js route handler, or any
 * server with the Fetch API's Request and Response): the browser's EventSource asks your origin, your
 * server adds the Basic credentials it keeps, and the events pass through as they come. The secret
 * never reaches the browser. Authenticate your own users before calling it.
 */
export async function proxyGasStream(request: Request, chainId: number, gasApi: GasApi): Promise<Response> {
  const headers: Record<string, string> = { authorization: basicAuth(gasApi.apiKey, gasApi.apiSecret) }
  const lastEventId = request.headers.get('last-event-id')
  if (lastEventId !== null) headers['last-event-id'] = lastEventId
  const upstream = await fetch(`${gasApi.url}/networks/${chainId}/stream`, { headers, signal: request.signal })
  return new Response(upstream.body, {
    status: upstream.status,
    headers: {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      'cache-control': 'no-store',
    },
  })
}
