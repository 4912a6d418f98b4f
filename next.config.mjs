/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // gzip belongs to the reverse proxy or CDN: in-process it cost ~2 ms per response (see README)
  compress: false,
  // NEXT_OUTPUT=standalone (the Dockerfile sets it) builds a self-contained server.js; the default
  // build stays the one `next start` serves
  ...(process.env.NEXT_OUTPUT === 'standalone' ? { output: 'standalone' } : {}),
}

export default nextConfig
