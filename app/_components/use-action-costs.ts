'use client'
import useSWR from 'swr'
import { TransactionCostSchema, type TransactionCostBody } from '@/lib/core/schemas'
import { fetchApi } from './api-client'
import { chargesBeyondGas, COMMON_ACTIONS, type ActionKey } from './costs'

/** GET transactionCost of the three common actions (their gas and typical sizes), in parallel. */
async function loadActionCosts(chainId: number): Promise<Record<ActionKey, TransactionCostBody>> {
  const answers = await Promise.all(
    COMMON_ACTIONS.map((a) => fetchApi(`/networks/${chainId}/transactionCost?gas=${a.gas}&txBytes=${a.txBytes}`, TransactionCostSchema)),
  )
  return Object.fromEntries(COMMON_ACTIONS.map((a, i) => [a.key, answers[i]!.data])) as Record<ActionKey, TransactionCostBody>
}

/**
 * The common actions' whole costs (GET transactionCost) on a chain that charges a fee beside gas (an
 * L2's L1 data fee or operator fee), refreshed with each new block the page shows; undefined on a chain
 * that charges none (one look tells: gas × the fees the page has is then the whole cost) and while loading.
 */
export function useActionCosts(chainId: number, blockNumber: number | undefined): Record<ActionKey, TransactionCostBody> | undefined {
  const probe = useSWR(['action-costs', chainId], () => loadActionCosts(chainId), { revalidateOnFocus: false })
  const charges = probe.data !== undefined && Object.values(probe.data).some(chargesBeyondGas)
  const live = useSWR(
    charges && blockNumber !== undefined ? ['action-costs', chainId, blockNumber] : null,
    () => loadActionCosts(chainId),
    {
      keepPreviousData: true,
      revalidateOnFocus: false,
    },
  )
  return charges ? (live.data ?? probe.data) : undefined
}
