import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/llm/openai/parse-retry-after.js';
import { parseToolArguments } from '../../../src/llm/openai/parse-tool-arguments.js';
import { readServerSentEvents } from '../../../src/llm/openai/read-server-sent-events.js';
import { StreamAccumulator } from '../../../src/llm/openai/stream-accumulator.js';

function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(new Date(now + 7000).toUTCString(), now)).toBe(7000);
    expect(parseRetryAfter(new Date(now - 7000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('parseToolArguments', () => {
  it('accepts a JSON string, an object or nothing, and keeps anything else raw', () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments({ a: 1 })).toEqual({ a: 1 });
    expect(parseToolArguments(undefined)).toEqual({});
    expect(parseToolArguments(null)).toEqual({});
    expect(parseToolArguments('  ')).toEqual({});
    expect(parseToolArguments('{"a":')).toEqual({ _raw: '{"a":' });
    expect(parseToolArguments('"text"')).toEqual({ _raw: '"text"' });
    expect(parseToolArguments(42)).toEqual({ _raw: '42' });
  });
});

describe('readServerSentEvents', () => {
  it('yields the data of each event, joining multi-line data and skipping comments and other fields', async () => {
    const events: string[] = [];
    for await (const data of readServerSentEvents(streamOf([': hi\n', 'event: message\ndata: a\nda', 'ta: b\r\n\r\ndata:c\n\n', 'data: tail']))) {
      events.push(data);
    }
    expect(events).toEqual(['a\nb', 'c', 'tail']);
  });

  it('decodes characters split across network chunks', async () => {
    const bytes = new TextEncoder().encode('data: 月璃\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    const events: string[] = [];
    for await (const data of readServerSentEvents(stream)) events.push(data);
    expect(events).toEqual(['月璃']);
  });
});

describe('StreamAccumulator', () => {
  it('groups tool-call parts without an index by id, continuing the last call when a part has neither', () => {
    const accumulator = new StreamAccumulator();
    accumulator.add({ choices: [{ delta: { tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{"x"' } }] } }] });
    accumulator.add({ choices: [{ delta: { tool_calls: [{ function: { arguments: ':1}' } }] } }] });
    accumulator.add({ choices: [{ delta: { tool_calls: [{ id: 'b', function: { name: 'g', arguments: { y: 2 } } }] } }] });
    accumulator.add({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
    expect(accumulator.finished).toBe(true);
    expect(accumulator.reply().toolCalls).toEqual([
      { id: 'a', name: 'f', args: { x: 1 } },
      { id: 'b', name: 'g', args: { y: 2 } },
    ]);
  });
});
