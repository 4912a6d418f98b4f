// The floor stream of /networks/[chainId]/bench-floor-stream and /bench-bare/[segment]/stream (bench builds only).
import { SSE_HEADERS } from '@/lib/http/stream'

const encoder = new TextEncoder()
/** A `fees` event's data of about a real one's size on the bench's devnet (its five bodies, 4 KB). */
const DATA = JSON.stringify({ padding: 'x'.repeat(4_000) })
const OPENING = encoder.encode(`retry: 1000\n: floor\n\n`)
const streams = new Set<ReadableStreamDefaultController<Uint8Array>>()
let id = 1
let timer: ReturnType<typeof setInterval> | undefined
const event = () => encoder.encode(`id: ${id}\nevent: fees\ndata: ${DATA}\n\n`)

function tick(): void {
  id++
  const bytes = event()
  for (const c of streams) {
    try {
      c.enqueue(bytes)
    } catch {
      streams.delete(c) // closed without a cancel: no longer sent to
    }
  }
  if (streams.size === 0 && timer) timer = (clearInterval(timer), undefined)
}

export function floorStream(): Response {
  let self: ReadableStreamDefaultController<Uint8Array> | undefined
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      self = controller
      streams.add(controller)
      controller.enqueue(OPENING)
      controller.enqueue(event())
      timer ??= setInterval(tick, 2_000)
    },
    cancel() {
      if (self) streams.delete(self)
    },
  })
  return new Response(body, { headers: SSE_HEADERS })
}
