// GET /networks/[chainId]/accuracy – how the service's own suggestions fared over the window it serves:
// per level, the share included within the promised wait, the median wait and overpayment, judged by
// the same code and judge as `npm run backtest` (lib/core/evaluation/accuracy.ts). No extra upstream read.
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('accuracy')
