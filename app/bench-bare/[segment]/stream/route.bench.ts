// GET /bench-bare/[segment]/stream – Next's own floor for a stream open: /networks/[chainId]/bench-floor-stream
// outside the middleware's matcher (middleware.ts). Only in bench builds.
export { GET } from '../../../networks/[chainId]/bench-floor-stream/route.bench'

export const dynamic = 'force-dynamic'
