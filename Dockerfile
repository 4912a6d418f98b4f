# Container image for self-hosting, after Next.js's official with-docker example (standalone output).
# Build: docker build -t gas-api .
# Run:   docker run -p 3000:3000 -e API_KEYS='me:at-least-16-characters' -e RPC_URL_1='https://…' gas-api
# Several instances: add -e REDIS_URL='redis://…' (the image is built with the Redis cache handler,
# which uses only its in-process LRU when REDIS_URL is unset).

FROM node:24-slim AS deps
WORKDIR /app
# The optional zstd-napi (Scroll's exact compressed size; without it the service answers Scroll's fee bound) compiles
# with node-gyp: the toolchain stays in this stage, and node-gyp takes Node's headers from the image (/usr/local).
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
RUN if [ -f /usr/local/include/node/common.gypi ]; then export npm_config_nodedir=/usr/local; fi; npm ci --no-audit --no-fund

FROM node:24-slim AS builder
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1 NEXT_OUTPUT=standalone NEXT_CACHE_HANDLER=redis
RUN npx next build

FROM node:24-slim AS runner
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
RUN groupadd --system --gid 1001 nodejs && useradd --system --uid 1001 --gid nodejs nextjs
COPY --from=builder /app/public ./public
COPY --from=builder --chown=nextjs:nodejs /app/.next/standalone ./
COPY --from=builder --chown=nextjs:nodejs /app/.next/static ./.next/static
USER nextjs
EXPOSE 3000
# liveness: /healthz answers without credentials or upstream calls (docs/operations.md, Health checks)
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
