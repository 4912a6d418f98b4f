// GET /bench-floor/[segment] – the framework's floor for a route with a dynamic segment, like the
// API's /networks/[chainId]/…: the same constant behind the same middleware. 404 unless BENCH_FLOOR=true.
export { GET } from '../route'

export const dynamic = 'force-dynamic'
