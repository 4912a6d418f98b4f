import { describe, expect, test } from 'vitest'
import { clientAddress, onVercelPlatform } from '@/lib/auth/client-address'
import { clientKey, inCidr, parseCidr, parseIp } from '@/lib/auth/ip'
import { parseTrustProxy } from '@/lib/auth/trust-proxy'
import { startupAddressLine } from '@/lib/auth/address-policy'
import { installPeerStamp, keyPathUrl, originForm, PEER_HEADER, stampedPeer, stampPeer } from '@/lib/runtime/peer-stamp'

const h = (xff?: string, extra: Record<string, string> = {}) =>
  new Headers({ ...(xff === undefined ? {} : { 'x-forwarded-for': xff }), ...extra })

describe('parseIp / clientKey', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:127.0.0.2', '127.0.0.2'],
    ['[2001:db8::1]', '2001:db8:0:0::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['203.0.113.7:5678', '203.0.113.7'],
    ['[2001:db8:1:2::9]:443', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::A', '2001:db8:1:2::/64'],
  ])('behavior: %s counts as %s', (text, key) => {
    expect(clientKey(parseIp(text)!)).toBe(key)
  })
  test.each(['', 'unknown', '256.1.1.1', '1.2.3', '01.2.3.4', '2001:db8::1::2', '1:2:3:4:5:6:7:8:9', 'x'.repeat(100)])(
    'error: %j is no address',
    (t) => {
      expect(parseIp(t)).toBeNull()
    },
  )
})

describe('parseCidr / inCidr', () => {
  test.each([
    ['10.0.0.0/8', '10.200.3.4', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['172.16.0.0/12', '172.31.255.255', true],
    ['172.16.0.0/12', '172.32.0.0', false],
    ['127.0.0.1', '127.0.0.1', true],
    ['127.0.0.1', '127.0.0.2', false],
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '10.0.0.1', false],
    ['0.0.0.0/0', '8.8.8.8', true],
  ])('behavior: %s holds %s: %s', (range, ip, want) => {
    expect(inCidr(parseIp(ip)!, parseCidr(range)!)).toBe(want)
  })
  test.each(['10.0.0.0/33', '10.0.0.0/x', '10.0.0.0/8/1', 'nope/8'])('error: %s', (t) => expect(parseCidr(t)).toBeNull())
})

describe('parseTrustProxy', () => {
  test.each([
    [undefined, { kind: 'none' }],
    ['false', { kind: 'none' }],
    ['0', { kind: 'none' }],
    ['true', { kind: 'hops', hops: 1 }],
    ['2', { kind: 'hops', hops: 2 }],
  ])('args: %j', (text, want) => expect(parseTrustProxy(text)).toEqual(want))
  test('args: a list of addresses, ranges and names', () => {
    const t = parseTrustProxy('10.0.0.0/8, 192.0.2.1, loopback')
    expect(t.kind === 'list' && t.ranges.length).toBe(4)
  })
  test.each(['11', 'yes', '10.0.0.0/8,,1.2.3.4', '300.1.1.1'])('error: %j', (text) => expect(() => parseTrustProxy(text)).toThrow())
})

describe('clientAddress', () => {
  const none = parseTrustProxy('false')
  const one = parseTrustProxy('true')
  const two = parseTrustProxy('2')
  const list = parseTrustProxy('10.0.0.0/8, 127.0.0.1')
  test.each([
    ['peer, no proxy: a forged header buys nothing', h('198.51.100.1'), none, 'peer', '127.0.0.2', '127.0.0.2'],
    ['peer, no proxy, IPv4-mapped peer', h(), none, 'peer', '::ffff:127.0.0.3', '127.0.0.3'],
    ['peer, no proxy, IPv6 peer: its /64', h(), none, 'peer', '2001:db8:aa:bb::7', '2001:db8:aa:bb::/64'],
    ['peer, one hop: the entry the proxy appended', h('6.6.6.6, 203.0.113.9'), one, 'peer', '10.0.0.5', '203.0.113.9'],
    ['peer, one hop, no header: the peer', h(), one, 'peer', '10.0.0.5', '10.0.0.5'],
    ['peer, two hops', h('6.6.6.6, 203.0.113.9, 10.0.0.9'), two, 'peer', '10.0.0.5', '203.0.113.9'],
    ['peer, list: past the trusted proxies', h('6.6.6.6, 203.0.113.9, 10.1.1.1'), list, 'peer', '127.0.0.1', '203.0.113.9'],
    ['peer, list: an untrusted peer is the client whatever it forwards', h('203.0.113.9'), list, 'peer', '192.0.2.50', '192.0.2.50'],
    ['peer, list: all trusted, the leftmost', h('10.0.0.1'), list, 'peer', '127.0.0.1', '10.0.0.1'],
    ['no peer seen, one hop: the rightmost entry', h('6.6.6.6, 203.0.113.9'), one, 'none', null, '203.0.113.9'],
    ['no peer seen, no proxy: unknown', h('203.0.113.9'), none, 'none', null, null],
    ['no peer seen, one hop, no header: unknown', h(), one, 'none', null, null],
    ['peer, one hop, garbage the proxy passed: unknown', h('not-an-ip'), one, 'peer', '10.0.0.5', null],
    ['peer stamp missing: unknown', h('203.0.113.9'), none, 'peer', null, null],
    ["platform: Vercel's own header", h('6.6.6.6', { 'x-vercel-forwarded-for': '203.0.113.9' }), none, 'platform', null, '203.0.113.9'],
  ] as const)('behavior: %s', (_, headers, trust, source, peer, want) => {
    expect(clientAddress(headers, trust, source, peer)).toBe(want)
  })
})

describe('peer stamp', () => {
  test("behavior: a stamp is this process's, replacing what the client sent", () => {
    const req = {
      url: '/x',
      headers: { [PEER_HEADER]: 'forged 6.6.6.6' } as Record<string, string | undefined>,
      socket: { remoteAddress: '127.0.0.2' },
    }
    expect(stampedPeer(req.headers[PEER_HEADER]!)).toBeNull()
    stampPeer(req)
    expect(stampedPeer(req.headers[PEER_HEADER]!)).toBe('127.0.0.2')
  })
  test('behavior: no socket address, no stamp', () => {
    const req = { headers: { [PEER_HEADER]: 'forged 6.6.6.6' } as Record<string, string | undefined>, socket: null }
    stampPeer(req)
    expect(req.headers[PEER_HEADER]).toBeUndefined()
  })
  test.each([
    ['http://evil.example/networks/1/busyThreshold?x=1', '/networks/1/busyThreshold?x=1'],
    ['HTTPS://h:8443', '/'],
    ['http://h?x=1', '/?x=1'],
    ['/networks/1/x', '/networks/1/x'],
    ['*', '*'],
  ])('behavior: originForm(%s) is %s', (url, want) => expect(originForm(url)).toBe(want))
  test('behavior: the stamp takes an absolute-form target to its path, a key path then as keyPathUrl', () => {
    const req = { url: 'http://h/v3/k123//metrics', headers: {}, socket: { remoteAddress: '192.0.2.1' } }
    stampPeer(req)
    expect(req.url).toBe('/v3/k123/metrics')
  })
  test('behavior: no listening HTTP server in a test process, nothing installed', () => {
    expect(installPeerStamp()).toBe(0)
  })
  test.each([
    ['/v3/k123/networks/1/suggestedGasFees', '/v3/k123/networks/1/suggestedGasFees'],
    ['/v3/k123//metrics', '/v3/k123/metrics'],
    ['/v3/k123/networks/1/suggestedGasFees/', '/v3/k123/networks/1/suggestedGasFees'],
    ['/v3/k123\\networks\\1/x?a=//b', '/v3/k123/networks/1/x?a=//b'],
    ['/networks//1', '/networks//1'],
    ['//v3/k123/networks/1/suggestedGasFees', '/v3/k123/networks/1/suggestedGasFees'],
    ['/\\v3/k123/networks/1/x', '/v3/k123/networks/1/x'],
    ['http://h/v3/k123/networks/1/x', '/v3/k123/networks/1/x'],
    ['/v3/k123/networks/1/x/.', '/v3/k123/networks/1/x'],
    ['/v3/k123/networks/1/x/%2e', '/v3/k123/networks/1/x'],
    ['/v3/k123/x/..', '/v3/k123'],
    ['/./v3/k123/networks/1/x/', '/v3/k123/networks/1/x'],
    ['/v3/k123/x#//y', '/v3/k123/x'],
    ['/_next/image/?url=/v3/k123/x', '/_next/image?url=/v3/k123/x'],
    ['/networks/1/', '/networks/1/'],
  ])('behavior: keyPathUrl(%s)', (url, want) => expect(keyPathUrl(url)).toBe(want))
})

describe('startupAddressLine', () => {
  test('error: PUBLIC_ACCESS where no address can be seen is refused, saying why', () => {
    const line = startupAddressLine({ TRUST_PROXY: parseTrustProxy('false'), PUBLIC_ACCESS: true })
    expect(line.refuse).toBe(true)
    expect(line.msg).toMatch(/PUBLIC_ACCESS=true is refused/)
  })
  test('behavior: without open access, the throttle counts per instance only', () => {
    const line = startupAddressLine({ TRUST_PROXY: parseTrustProxy('false'), PUBLIC_ACCESS: false })
    expect(line.refuse).toBe(false)
    expect(line.msg).toMatch(/per instance only/)
  })
  test('behavior: a named proxy is read', () => {
    expect(startupAddressLine({ TRUST_PROXY: parseTrustProxy('true'), PUBLIC_ACCESS: true }).refuse).toBe(false)
  })
})

describe('onVercelPlatform', () => {
  test('behavior: VERCEL=1 in a self-hosted Next server (vercel env pull) is not the platform', () => {
    const saved = { vercel: process.env.VERCEL, title: process.title }
    try {
      process.env.VERCEL = '1'
      process.title = 'node'
      expect(onVercelPlatform()).toBe(true)
      process.title = 'next-server (v16.4.6)'
      expect(onVercelPlatform()).toBe(false)
      delete process.env.VERCEL
      process.title = 'node'
      expect(onVercelPlatform()).toBe(false)
    } finally {
      if (saved.vercel === undefined) delete process.env.VERCEL
      else process.env.VERCEL = saved.vercel
      process.title = saved.title
    }
  })
})
