import 'server-only'
import type { AccuracyReport } from '../core/evaluation/accuracy'
import { cachedWindows, heldAccuracy } from '../fees'
import { sharedStoreUp } from '../store/client'
import { metricsContentType, renderMetrics } from '../metrics/registry'
import { verifyBearer } from '../auth/bearer'
import { getServerEnv } from '../env'
import { BEARER_CHALLENGE, errorJson } from './error-body'
import { toErrorResponse } from './error-answers'
import { openStreams } from './stream-hub'

/** The /metrics body: the counters, each cached chain's data age, head age and block, and with REDIS_URL the shared store's state. */
function metricsText(now = Date.now()): Promise<string> {
  const windows = cachedWindows()
  const up = sharedStoreUp()
  const accuracy = heldAccuracy()
  /** One sample per chain and level where the value is known. */
  const perLevel = (value: (l: AccuracyReport['levels']['low']) => number | null) =>
    accuracy.flatMap((a) =>
      (['low', 'medium', 'high'] as const).flatMap((level) => {
        const v = value(a.levels[level])
        return v === null ? [] : [{ labels: { chain: a.chainId, level }, value: v }]
      }),
    )
  return renderMetrics([
    {
      name: 'gas_api_data_age_seconds',
      help: 'Seconds since the chain window this process serves was read from the node.',
      labelNames: ['chain'],
      samples: windows.map((w) => ({ labels: { chain: w.chainId }, value: Math.max(0, (now - w.fetchedAt) / 1000) })),
    },
    {
      name: 'gas_api_head_age_seconds',
      help: 'Wall clock minus the timestamp of the latest block this process holds: a node that stopped following its chain grows it.',
      labelNames: ['chain'],
      samples: windows.map((w) => ({ labels: { chain: w.chainId }, value: Math.round(now / 1000 - w.headTimestamp) })),
    },
    {
      name: 'gas_api_block_number',
      help: 'Latest block of the chain window this process serves.',
      labelNames: ['chain'],
      samples: windows.map((w) => ({ labels: { chain: w.chainId }, value: w.headNumber })),
    },
    {
      name: 'gas_api_streams_open',
      help: 'Streams (GET /networks/{chainId}/stream) open on this instance, per chain.',
      labelNames: ['chain'],
      samples: openStreams().map((h) => ({ labels: { chain: h.chainId }, value: h.streams })),
    },
    {
      name: 'gas_api_accuracy_trials',
      help: 'Suggestions judged over the window this process serves (GET /networks/{chainId}/accuracy), per level.',
      labelNames: ['chain', 'level'],
      samples: perLevel((l) => l.trials),
    },
    {
      name: 'gas_api_accuracy_included_within_promise_ratio',
      help: 'Share of the judged suggestions included within their promised wait, by the backtest judge, per level.',
      labelNames: ['chain', 'level'],
      samples: perLevel((l) => l.includedWithinPromise),
    },
    {
      name: 'gas_api_accuracy_median_wait_blocks',
      help: 'Median blocks until inclusion of the judged suggestions that were included, per level.',
      labelNames: ['chain', 'level'],
      samples: perLevel((l) => l.medianWaitBlocks),
    },
    {
      name: 'gas_api_accuracy_median_overpayment_ratio',
      help: 'Median of paid / the cheapest price that would have got in within the same wait − 1, per level.',
      labelNames: ['chain', 'level'],
      samples: perLevel((l) => l.medianOverpayment),
    },
    // only with REDIS_URL
    ...(up === undefined
      ? []
      : [
          {
            name: 'gas_api_shared_store_up',
            help: 'With REDIS_URL: 1 while this instance reaches Redis (shared mode), 0 while it serves on its own (degraded).',
            labelNames: [],
            samples: [{ labels: {}, value: up }],
          },
        ]),
  ])
}

/**
 * GET /metrics: the text, to a request carrying the METRICS_TOKEN bearer; 401 otherwise, 404 when no token is
 * configured.
 */
export async function metricsResponse(request: Request): Promise<Response> {
  let token: string | undefined
  try {
    token = getServerEnv().METRICS_TOKEN
  } catch (err) {
    return toErrorResponse(err)
  }
  if (token === undefined) return errorJson(404, 'Not found: /metrics is off (no METRICS_TOKEN is configured).')
  if ((await verifyBearer(request.headers.get('authorization'), token)) !== 'ok') {
    return errorJson(401, 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.', BEARER_CHALLENGE)
  }
  return new Response(await metricsText(), {
    headers: { 'content-type': metricsContentType(), 'cache-control': 'no-store' },
  })
}
