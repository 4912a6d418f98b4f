'use client'
import useSWR from 'swr'
import { TransactionCostSchema, type TransactionCostBody } from '@/lib/core/contract/schemas'
import { fetchApi } from './api-client'
import { chargesBeyondGas, COMMON_ACTIONS, type ActionKey } from './costs'

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
 * The common actions' whole costs (GET transactionCost) on a chain that charges a fee beside gas (an L2's L1
 * data fee or operator fee), re-read every L1 slot (12 s) while the chain charges one; undefined on a chain
 * that charges none (gas × the fees the page shows is then the whole cost) and while loading.
 */
export function useActionCosts(chainId: number): Record<ActionKey, TransactionCostBody> | undefined {
  const { data } = useSWR(['action-costs', chainId], () => loadActionCosts(chainId), {
    refreshInterval: (latest) => (latest && Object.values(latest).some(chargesBeyondGas) ? REFRESH_MS : 0),
    revalidateOnFocus: false,
    keepPreviousData: true,
  })
  return data && Object.values(data).some(chargesBeyondGas) ? data : undefined
}
