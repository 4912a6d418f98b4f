import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { ChainView } from '@/app/_components/chain-view'
import { getChain } from '@/lib/chains/registry'
import { parseChainId } from '@/lib/http/chain-id'

export const dynamic = 'force-dynamic'

type Props = { params: Promise<{ chainId: string }> }

function chainFrom(raw: string) {
  try {
    return getChain(parseChainId(raw))
  } catch {
    return undefined
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const chain = chainFrom((await params).chainId)
  return { title: chain ? `${chain.name} gas fees · Gas API` : 'Unknown chain · Gas API' }
}

/** The live fee view of one chain; an unknown or invalid chain id renders the not-found page. */
export default async function ChainPage({ params }: Props) {
  const chain = chainFrom((await params).chainId)
  if (!chain) notFound()
  // a chain viem does not know: its token unnamed, with 18 decimals assumed (as on nearly every EVM chain)
  const nativeCurrency = chain.nativeCurrency ?? { symbol: 'native token', decimals: 18 }
  return <ChainView chainId={chain.id} name={chain.name} nativeCurrency={nativeCurrency} />
}
