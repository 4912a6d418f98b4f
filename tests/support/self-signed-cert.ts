import { generateKeyPairSync, sign, X509Certificate } from 'node:crypto'

/** One DER element: tag, definite length, contents. */
function der(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents)
  const n = body.length
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff])
  return Buffer.concat([Buffer.from([tag]), length, body])
}

const seq = (...c: Buffer[]) => der(0x30, ...c)
const oid = (hex: string) => der(0x06, Buffer.from(hex, 'hex'))
const utcTime = (d: Date) => der(0x17, Buffer.from(d.toISOString().replace(/\D/g, '').slice(2, 14) + 'Z'))
const name = (cn: string) => seq(der(0x31, seq(oid('550403'), der(0x0c, Buffer.from(cn)))))

/**
 * A throwaway self-signed certificate (ECDSA P-256, SHA-256) for `hostname`, made at test time with
 * node:crypto alone: no openssl CLI (not on a fresh Debian) and no private key in the repo.
 * Valid from an hour ago for a day; the subject alternative name is the host. Returns PEM strings
 * for `tls.createServer({ key, cert })`.
 *
 * @example const { key, cert } = selfSignedCert('api.example.com')
 */
export function selfSignedCert(hostname: string): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const ecdsaWithSha256 = seq(oid('2a8648ce3d040302'))
  const now = Date.now()
  const subjectAltName = seq(oid('551d11'), der(0x04, seq(der(0x82, Buffer.from(hostname)))))
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))), // version 3
    der(0x02, Buffer.from([0x01, ...Array.from({ length: 8 }, () => Math.floor(Math.random() * 256))])),
    ecdsaWithSha256,
    name(hostname),
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 86_400_000))),
    name(hostname),
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, seq(subjectAltName)),
  )
  const signature = sign('sha256', tbs, privateKey)
  const certDer = seq(tbs, ecdsaWithSha256, der(0x03, Buffer.from([0]), signature))
  const cert = `-----BEGIN CERTIFICATE-----\n${certDer.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`
  // a malformed encoding fails here, not as an opaque handshake error in the browser
  if (!new X509Certificate(cert).verify(publicKey)) throw new Error('selfSignedCert: the certificate does not verify')
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert }
}
