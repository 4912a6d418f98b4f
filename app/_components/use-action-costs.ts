'use client'
import useSWR, { unstable_serialize, useSWRConfig } from 'swr'
import { TransactionCostSchema, type TransactionCostBody } from '@/lib/core/contract/schemas'
import { fetchApi } from './api-client'
import { COMMON_ACTIONS, wholeCostDiffers, type ActionKey } from './costs'

/** Ethereum's slot, ms: an L2's L1 data fee changes at most once per L1 block, so the whole costs are re-read this often. */
const REFRESH_MS = 12_000

/** GET transactionCost of the three common actions (their gas and typical sizes), in parallel. */
async function loadActionCosts(chainId: number): Promise<Record<ActionKey, TransactionCostBody>> {
  const answers = await Promise.all(
    COMMON_ACTIONS.map((a) => fetchApi(`/networks/${chainId}/transactionCost?gas=${a.gas}&txBytes=${a.txBytes}`, TransactionCostSchema)),
  )
  return Object.fromEntries(COMMON_ACTIONS.map((a, i) => [a.key, answers[i]!.data])) as Record<ActionKey, TransactionCostBody>
}

/**
 * The common actions' whole costs (GET transactionCost) on a chain where they are more than gas × the suggested fees
 * (an L2's L1 data fee or operator fee, Linea's tip floor per transaction), re-read every L1 slot (12 s) while so;
 * undefined elsewhere (gas × the fees the page shows is then the whole cost) and while loading.
 */
export function useActionCosts(chainId: number): Record<ActionKey, TransactionCostBody> | undefined {
  const key = ['action-costs', chainId]
  // re-read while the answers hold more than gas, or lack a fee the chain charges (null: its parameters did not answer
  // yet, or the service does not compute it). A number from the answers cached, not SWR's function form: SWR restarts
  // its timer whenever that option changes, and the page renders every second (the data's age)
  const cached = useSWRConfig().cache.get(unstable_serialize(key))?.data as Record<ActionKey, TransactionCostBody> | undefined
  const { data } = useSWR(key, () => loadActionCosts(chainId), {
    refreshInterval: cached !== undefined && Object.values(cached).some(shownWhole) ? REFRESH_MS : 0,
    revalidateOnFocus: false,
    keepPreviousData: true,
  })
  const whole = data !== undefined && Object.values(data).some(shownWhole)
  return whole ? data : undefined
}

/** An answer the panel shows whole: more than gas × the fees, or one that says what it leaves out (l1DataFee null). */
const shownWhole = (cost: TransactionCostBody) => wholeCostDiffers(cost) || cost.l1DataFee === null
