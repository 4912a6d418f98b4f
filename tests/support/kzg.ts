import { bytesToHex, defineKzg, hexToBytes, type Kzg } from 'viem'
import { loadKZG } from 'kzg-wasm'

/**
 * viem's KZG interface (blob commitments and proofs for blob transactions) from kzg-wasm, the
 * WebAssembly build of c-kzg-4844 with the mainnet trusted setup. Loading it takes ~20 s of CPU, so
 * load it once per test file. Commitments and proofs are memoised by blob: tests that send the same
 * blob again pay for it once (a proof is ~0.5 s).
 */
export async function loadTestKzg(): Promise<Kzg> {
  const kzg = await loadKZG()
  const memo = new Map<string, Uint8Array>()
  const once = (key: string, compute: () => string) => {
    let v = memo.get(key)
    if (!v) memo.set(key, (v = hexToBytes(compute() as `0x${string}`)))
    return v
  }
  return defineKzg({
    blobToKzgCommitment: (blob) => {
      const hex = bytesToHex(blob)
      return once(`c${hex}`, () => kzg.blobToKZGCommitment(hex))
    },
    computeBlobKzgProof: (blob, commitment) => {
      const hex = bytesToHex(blob)
      return once(`p${hex}`, () => kzg.computeBlobKZGProof(hex, bytesToHex(commitment)))
    },
  })
}
