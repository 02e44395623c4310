/** What `readBodyUpTo` read. */
export interface BodyPrefix {
  /** The first bytes of the body, at most the limit. */
  bytes: Uint8Array;
  /** True when the whole body fit within the limit. */
  complete: boolean;
}

/**
 * Reads at most `limit` bytes of a response body and stops the download there (the rest is
 * never read), so an oversized body costs no more than the limit.
 */
export async function readBodyUpTo(body: ReadableStream<Uint8Array> | null, limit: number): Promise<BodyPrefix> {
  if (body === null) return { bytes: new Uint8Array(0), complete: true };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: concat(chunks, total), complete: true };
      const room = limit - total;
      if (value.length > room) {
        chunks.push(value.subarray(0, room));
        return { bytes: concat(chunks, limit), complete: false };
      }
      chunks.push(value);
      total += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
