/**
 * IP addresses as the gate counts them (edge-safe, no node:net): parsed to bytes, matched against CIDR ranges, and
 * written in one canonical form per client. An IPv6 client is one /64 (RFC 4291's interface identifier is the lower
 * 64 bits: one subscriber's network, which an ISP hands out whole), so a host cannot take a new quota per address.
 */

/** A parsed address: 4 bytes (IPv4) or 16 (IPv6; an IPv4-mapped `::ffff:a.b.c.d` is read as the IPv4 address). */
export type Ip = Uint8Array

function parseV4(s: string): number[] | null {
  const parts = s.split('.')
  if (parts.length !== 4) return null
  const bytes = parts.map((p) => (/^(0|[1-9]\d{0,2})$/.test(p) ? Number(p) : 256))
  return bytes.every((b) => b <= 255) ? bytes : null
}

function parseV6(s: string): number[] | null {
  // a zone (fe80::1%eth0) names a local interface, not another host
  const text = s.split('%')[0]!
  const halves = text.split('::')
  if (halves.length > 2) return null
  const groups = (half: string): number[] | null => {
    if (half === '') return []
    const out: number[] = []
    const parts = half.split(':')
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseV4(p)
        if (!v4) return null
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
      } else if (/^[0-9a-f]{1,4}$/i.test(p)) out.push(parseInt(p, 16))
      else return null
    }
    return out
  }
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  if (!head || !tail) return null
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
  return all.flatMap((g) => [g >> 8, g & 0xff])
}

/**
 * Parses an address as a client or a proxy writes it (`1.2.3.4`, `2001:db8::1`, `[2001:db8::1]`, `::ffff:1.2.3.4`, with
 * or without a port); null if it is none.
 */
export function parseIp(text: string): Ip | null {
  // a proxy may write the client's port too (IIS ARR, Azure: `1.2.3.4:5678`, `[2001:db8::1]:443`)
  const s = text
    .trim()
    .replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/, '$1')
    .replace(/^\[(.*)\](?::\d{1,5})?$/, '$1')
  if (s.length === 0 || s.length > 64) return null
  const v4 = parseV4(s)
  if (v4) return Uint8Array.from(v4)
  const v6 = parseV6(s)
  if (!v6) return null
  // IPv4-mapped (RFC 4291 2.5.5.2): Node reports an IPv4 peer on a dual-stack socket this way
  if (v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff) return Uint8Array.from(v6.slice(12))
  return Uint8Array.from(v6)
}

/** A range of addresses: `10.0.0.0/8`, `2001:db8::/32`, or one address (its full length). */
export type Cidr = { network: Ip; bits: number }

/** Parses `address[/bits]`; null if it is not one. */
export function parseCidr(text: string): Cidr | null {
  const [addr, bitsText, extra] = text.trim().split('/')
  if (extra !== undefined || addr === undefined) return null
  const network = parseIp(addr)
  if (!network) return null
  const max = network.length * 8
  if (bitsText === undefined) return { network, bits: max }
  if (!/^\d{1,3}$/.test(bitsText)) return null
  // an IPv4-mapped range (::ffff:10.0.0.0/104) counts its bits over the IPv4 address
  let bits = Number(bitsText)
  if (network.length === 4 && addr.includes(':')) bits -= 96
  return bits >= 0 && bits <= max ? { network, bits } : null
}

/** Whether `ip` is inside `range` (never across families). */
export function inCidr(ip: Ip, range: Cidr): boolean {
  if (ip.length !== range.network.length) return false
  for (let i = 0, left = range.bits; left > 0; i++, left -= 8) {
    const mask = left >= 8 ? 0xff : (0xff << (8 - left)) & 0xff
    if ((ip[i]! & mask) !== (range.network[i]! & mask)) return false
  }
  return true
}

/** How a client is counted: an IPv4 address as written (`203.0.113.7`), an IPv6 one as its /64 (`2001:db8:1:2::/64`). */
export function clientKey(ip: Ip): string {
  if (ip.length === 4) return ip.join('.')
  const groups: string[] = []
  for (let i = 0; i < 8; i += 2) groups.push(((ip[i]! << 8) | ip[i + 1]!).toString(16))
  return `${groups.join(':')}::/64`
}
