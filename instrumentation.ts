// Runs once when a server instance starts (Next's instrumentation hook): the whole configuration is
// validated here, so a bad value (a weak API key secret, a plain-http RPC URL to another host, …) is
// one clear log line at start, naming the variable and entry, never a secret or a URL.
//
// Self-hosted (`next start`, the container), the process then exits with code 1: the start is
// refused. (Throwing instead leaves Next serving a bare-text 500 to every request, measured on Next
// 16.4.) On Vercel a function cannot refuse its cold start, so there every request gets the JSON 503
// "misconfigured" answer the middleware and the handlers give (fail closed) and the line is logged.
export async function register() {
  // the edge sandbox (the middleware) validates its own settings on each request
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { getServerEnv } = await import('./lib/env')
  try {
    const env = getServerEnv()
    // the keyless tier's quota is per client address: without a trusted proxy that address is whatever the
    // client writes in X-Forwarded-For (lib/auth/client-address.ts), so a caller can take a quota per request
    if (env.PUBLIC_ACCESS && !env.TRUST_PROXY && env.PUBLIC_RATE_LIMIT.limit > 0)
      console.warn(
        JSON.stringify({
          level: 'warn',
          msg: 'PUBLIC_ACCESS without TRUST_PROXY: the keyless quota is per X-Forwarded-For as the client sends it; put a proxy in front and set TRUST_PROXY=true (docs/operations.md, Security)',
        }),
      )
  } catch (err) {
    const e = err as Error
    console.error(JSON.stringify({ level: 'error', msg: 'configuration refused at start', error: e.name, message: e.message }))
    if (!process.env.VERCEL) process.exit(1)
  }
}
