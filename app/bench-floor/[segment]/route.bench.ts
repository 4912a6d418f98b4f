// GET /bench-floor/[segment] – the framework's floor for a route with a dynamic segment, like the
// API's /networks/[chainId]/…: the same constant behind the same middleware. Only in bench builds.
export { GET } from '../route.bench'

export const dynamic = 'force-dynamic'
