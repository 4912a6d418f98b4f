// Runs once when a server instance starts (Next's instrumentation hook): the whole configuration is
// validated here, so a bad value (a weak API key secret, a plain-http RPC URL to another host, …) is
// one clear log line at start, naming the variable and entry, never a secret or a URL.
//
// Self-hosted (`next start`, the container), the process then exits with code 1: the start is
// refused. (Throwing instead leaves Next serving a bare-text 500 to every request, measured on Next
// 16.4.) On Vercel a function cannot refuse its cold start, so there every request gets the JSON 503
// "misconfigured" answer the middleware and the handlers give (fail closed) and the line is logged.
//
// It also puts the peer-address stamp in front of Next's HTTP server (lib/runtime/peer-stamp.ts), lengthens its
// listen backlog (lib/runtime/listen-backlog.ts), and says in one line where the client address every limit counts
// against comes from.
export async function register() {
  // the edge sandbox (the middleware) validates its own settings on each request
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { getServerEnv } = await import('./lib/env')
  const { checkCredentialNames } = await import('./lib/auth/credential-names')
  const { startupAddressLine } = await import('./lib/auth/address-policy')
  const { onVercelPlatform } = await import('./lib/auth/client-address')
  const { installPeerStamp } = await import('./lib/runtime/peer-stamp')
  const { widenListenBacklog } = await import('./lib/runtime/listen-backlog')
  try {
    const env = getServerEnv()
    const clash = await checkCredentialNames(env.API_KEYS, env.PUBLIC_API_KEYS)
    if (clash !== null) throw Object.assign(new Error(clash), { name: 'ConfigError' })
    if (!onVercelPlatform()) {
      installPeerStamp()
      // a burst of opens waits in the server's queue, not in clients' connect retries
      widenListenBacklog()
    }
    const line = startupAddressLine(env)
    if (line.refuse) throw Object.assign(new Error(line.msg), { name: 'ConfigError' })
    console.info(JSON.stringify({ level: 'info', ...line.fields, msg: line.msg }))
  } catch (err) {
    const e = err as Error
    console.error(JSON.stringify({ level: 'error', msg: 'configuration refused at start', error: e.name, message: e.message }))
    if (!onVercelPlatform()) process.exit(1)
  }
}
