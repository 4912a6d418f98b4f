/**
 * What the recorder says when recording fails: the error's class and short message, with every URL
 * (and every part of the node's URL: host, path, query, credentials) replaced by `<rpc url>`.
 * viem's errors carry the URL and the request in their message and details, and provider URLs embed
 * API keys, so the error itself is never printed.
 */
export function describeRecordError(err: unknown, url: string): string {
  const e = err instanceof Error ? err : new Error(String(err))
  const short = (e as { shortMessage?: unknown }).shortMessage
  const text = (typeof short === 'string' ? short : e.message).split('\n')[0] ?? ''
  return `${e.name}: ${redact(text, url)}`
}

function redact(text: string, url: string): string {
  const secrets = new Set<string>([url])
  try {
    const u = new URL(url)
    for (const part of [u.host, u.hostname, u.pathname, u.search, u.username, u.password, decodeURIComponent(u.pathname)])
      if (part.length > 1) secrets.add(part)
  } catch {
    // not a URL: the whole text was already added
  }
  let out = text.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<rpc url>')
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('<rpc url>')
  return out
}
