import { fileURLToPath } from 'node:url'

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // gzip belongs to the reverse proxy or CDN: in-process it cost more than the handler (docs/benchmarks.md)
  compress: false,
  // no page uses next/image: the optimizer stays off (and the middleware answers /_next/image with a 404), so a URL
  // that names a /v3/<key>/ path is never fetched, logged or echoed by it
  images: { unoptimized: true },
  // a native addon (lib/runtime/zstd-scroll.ts counts Scroll's compressed size with it): Node loads it from
  // node_modules at run time, never a bundle, and the standalone output traces it there
  serverExternalPackages: ['zstd-napi'],
  // GAS_API_BENCH_BUILD=1 (`npm run bench`, and the stream benches when a --paths entry names /bench-) adds the
  // framework-floor routes: the route.bench.ts files under app/bench-floor, app/bench-bare and
  // app/networks/[chainId]/bench-floor-stream. No other build has them
  pageExtensions: ['tsx', 'ts', 'jsx', 'js', ...(process.env.GAS_API_BENCH_BUILD === '1' ? ['bench.ts'] : [])],
  // NEXT_OUTPUT=standalone (the Dockerfile sets it) builds a self-contained server.js; the default
  // build stays the one `next start` serves
  ...(process.env.NEXT_OUTPUT === 'standalone' ? { output: 'standalone' } : {}),
  // REDIS_URL (read when `next start` loads this file) or NEXT_CACHE_HANDLER=redis (a build-time
  // switch for standalone images, whose config is frozen at build; the URL then comes at run time):
  // instances share Next's cache through Redis. Otherwise Next's default in-memory and file cache.
  // On Vercel (VERCEL=1 at build) the Data Cache already shares unstable_cache across instances, so
  // REDIS_URL there serves only the lock and the rate limits. See docs/scaling-out.md.
  ...((process.env.REDIS_URL || process.env.NEXT_CACHE_HANDLER === 'redis') && !process.env.VERCEL
    ? {
        cacheHandler: fileURLToPath(new URL('./lib/store/next-cache-handler.mjs', import.meta.url)),
        // the handler keeps its own per-instance LRU behind Redis
        cacheMaxMemorySize: 0,
      }
    : {}),
}

export default nextConfig
