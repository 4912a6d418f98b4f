// GET /bench-floor – a constant answer behind the same middleware: the framework's floor that `npm run bench`
// compares the endpoints with.

export const dynamic = 'force-dynamic'

const BODY = JSON.stringify({
  low: {
    suggestedMaxPriorityFeePerGas: '0.610244561',
    suggestedMaxFeePerGas: '1.039736944',
    minWaitTimeEstimate: 2016,
    maxWaitTimeEstimate: 12096,
  },
  medium: {
    suggestedMaxPriorityFeePerGas: '1.202228912',
    suggestedMaxFeePerGas: '1.74580521',
    minWaitTimeEstimate: 2016,
    maxWaitTimeEstimate: 6048,
  },
  high: {
    suggestedMaxPriorityFeePerGas: '2.005385341',
    suggestedMaxFeePerGas: '2.693349094',
    minWaitTimeEstimate: 2016,
    maxWaitTimeEstimate: 4032,
  },
  estimatedBaseFee: '0.429492383',
  networkCongestion: 0.554,
  latestPriorityFeeRange: ['0.48086478', '23.980848237'],
  historicalPriorityFeeRange: ['0', '750.037931823'],
  historicalBaseFeeRange: ['0.021828679', '3.796244869'],
  priorityFeeTrend: 'down',
  baseFeeTrend: 'down',
})

export async function GET(_request: Request, context: { params?: Promise<Record<string, string>> }): Promise<Response> {
  await context.params // like the endpoints, which read their dynamic segment
  return new Response(BODY, { headers: { 'content-type': 'application/json; charset=utf-8' } })
}
