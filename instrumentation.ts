// Runs once when a server instance starts (Next's instrumentation hook): a bad setting is one log line naming the
// variable and entry, never a secret or a URL. Self-hosted, the process then exits 1 (a throw would leave Next serving
// a bare-text 500 to every request); on Vercel a cold start cannot be refused, so every request gets the JSON 503.
// It also installs the peer-address stamp (lib/runtime/peer-stamp.ts), lengthens the listen backlog
// (lib/runtime/listen-backlog.ts) and logs where client addresses come from.
export async function register() {
  // the edge sandbox (the middleware) validates its own settings on each request
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { getServerEnv } = await import('./lib/env')
  const { checkCredentialNames } = await import('./lib/auth/credential-names')
  const { startupAddressLine } = await import('./lib/auth/address-policy')
  const { onVercelPlatform } = await import('./lib/auth/client-address')
  const { installPeerStamp } = await import('./lib/runtime/peer-stamp')
  const { widenListenBacklog } = await import('./lib/runtime/listen-backlog')
  const { endAllStreams } = await import('./lib/http/stream-hub')
  try {
    const env = getServerEnv()
    const clash = await checkCredentialNames(env.API_KEYS, env.PUBLIC_API_KEYS)
    if (clash !== null) throw Object.assign(new Error(clash), { name: 'ConfigError' })
    if (!onVercelPlatform()) {
      installPeerStamp()
      // a burst of opens waits in the server's queue, not in clients' connect retries
      widenListenBacklog()
      // Next's graceful close waits for open responses: the streams end at once and their clients reconnect (with
      // NEXT_MANUAL_SIG_HANDLE Next adds no handler, and one of ours would keep the signal from ending the process)
      if (!process.env.NEXT_MANUAL_SIG_HANDLE) for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, endAllStreams)
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
