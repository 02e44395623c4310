/**
 * The `data` of each server-sent event in `body`, as text (multi-line data joined by `\n`).
 * Handles events split anywhere across network chunks, `\r\n` line ends and `:` comments.
 * `onChunk` is called for every network chunk (the client restarts its idle timer there).
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>, onChunk: () => void = () => {}): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onChunk();
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
        // Other fields (`event:`, `id:`, `retry:`) and `:` comments carry nothing we use.
      }
    }
    buffer += decoder.decode();
    const last = buffer.replace(/\r$/, '');
    if (last.startsWith('data:')) data.push(last.slice(last.startsWith('data: ') ? 6 : 5));
    if (data.length > 0) yield data.join('\n');
  } finally {
    // Stops the download when the caller leaves early (after `[DONE]`, or on an error).
    await reader.cancel().catch(() => undefined);
  }
}
