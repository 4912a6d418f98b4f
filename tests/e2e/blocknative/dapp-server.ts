import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'

export type DappServer = { origin: string; close(): Promise<void> }

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dapp</title></head>
<body style="font: 12px monospace"><h1 id="origin"></h1><script src="/dapp.js"></script>
<script>document.getElementById('origin').textContent = 'dapp at ' + location.origin</script></body></html>`

/**
 * Bundles dapp.ts (the real @web3-onboard/gas and its dependencies) for the browser into a temporary
 * directory. Returns the bundle's text and removes the directory: nothing built is left behind.
 */
export async function bundleDapp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dapp-'))
  try {
    const outfile = join(dir, 'dapp.js')
    await build({
      entryPoints: [join(import.meta.dirname, 'dapp.ts')],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      outfile,
      logLevel: 'warning',
    })
    return await readFile(outfile, 'utf8')
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** A static page on its own 127.0.0.1 port (its own origin) that loads the bundled dapp. */
export async function startDappServer(bundle: string): Promise<DappServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
    else if (path === '/dapp.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
