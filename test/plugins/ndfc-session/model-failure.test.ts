import { describe, expect, it } from 'vitest';
import type { ModelCall } from '../../../src/llm/model-client.js';
import { toolReply, useTestHosts } from '../../support/ndfc.js';

const answer = toolReply([{ name: 'send_text', args: { content: '好的，收到' } }]);

/** The user prompt of a model call, joined. */
const userText = (call: ModelCall) =>
  call.payloads
    .filter((payload) => payload.role === 'user')
    .map((payload) => String(payload.content))
    .join('\n');

/** A script that fails `times` times with `error`, then answers. */
function downFor(times: number, error: string): () => ReturnType<typeof toolReply> {
  let left = times;
  return () => {
    if (left > 0) {
      left -= 1;
      throw new Error(error);
    }
    return answer;
  };
}

describe('NDFC when the model endpoint fails', () => {
  const start = useTestHosts();

  it('[fault] a model that is down gives Failure, the message stays unread, and the retry after the backoff answers it once', async () => {
    const test = await start({ script: downFor(2, 'connect ECONNREFUSED 127.0.0.1:9') });
    const outcome = await test.adapter.send('在吗');
    const streamId = (outcome as { message: { streamId: string } }).message.streamId;
    await test.settle(1_000);
    expect(test.model.calls).toHaveLength(1);
    expect(test.adapter.texts()).toEqual([]);
    // Not marked read: the message is still waiting for an answer, in memory and on disk.
    expect(test.host.chat.streams.fetchUnreads(streamId).map((message) => message.processedPlainText)).toEqual(['在吗']);
    expect(test.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', stream_id: streamId, unread: 1, retry_in_ms: 5_000, failures_in_a_row: 1, reason: expect.stringContaining('ECONNREFUSED') }),
    );

    // The first retry, 5 s later, fails too; the next waits twice as long.
    await test.settle(4_000);
    expect(test.model.calls).toHaveLength(2);
    expect(test.logs).toContainEqual(expect.objectContaining({ level: 'warn', stream_id: streamId, retry_in_ms: 10_000, failures_in_a_row: 2 }));
    await test.settle(9_000);
    expect(test.model.calls).toHaveLength(2);

    await test.settle(1_500);
    expect(test.model.calls).toHaveLength(3);
    expect(userText(test.model.calls[2]!)).toContain('在吗');
    await test.settle(5_000); // send_text types at a human pace
    expect(test.adapter.texts()).toEqual(['好的，收到']);
    expect(test.host.chat.streams.fetchUnreads(streamId)).toEqual([]);

    // Answered: no more retries.
    await test.settle(60_000);
    expect(test.adapter.texts()).toEqual(['好的，收到']);
  });

  it('[fault] a new message during the backoff is tried at once, with the one that failed', async () => {
    const test = await start({ script: downFor(1, 'HTTP 503 Service Unavailable') });
    await test.adapter.send('第一句');
    await test.settle(500);
    expect(test.model.calls).toHaveLength(1);
    await test.adapter.send('第二句');
    await test.settle(500);
    expect(test.model.calls).toHaveLength(2);
    expect(userText(test.model.calls[1]!)).toMatch(/第一句[\s\S]*第二句/);
    await test.settle(5_000); // send_text types at a human pace
    expect(test.adapter.texts()).toEqual(['好的，收到']);
  });

  it('[fault] a slow model is abandoned at the step timeout; its late answer is dropped and the retry answers once', async () => {
    let calls = 0;
    const test = await start({
      botConfig: { chat: { step_timeout_seconds: 30 } },
      script: async () => {
        calls += 1;
        // The first call hangs for two minutes and ignores cancellation, as some servers do.
        if (calls === 1) await test.clock.sleep(120_000);
        return answer;
      },
    });
    const outcome = await test.adapter.send('你好');
    const streamId = (outcome as { message: { streamId: string } }).message.streamId;
    await test.settle(29_000);
    expect(test.adapter.texts()).toEqual([]);
    await test.settle(2_000);
    expect(test.logs).toContainEqual(expect.objectContaining({ level: 'error', stream_id: streamId, msg: 'chatter step timed out; the run is abandoned' }));
    expect(test.logs).toContainEqual(expect.objectContaining({ level: 'warn', stream_id: streamId, unread: 1, retry_in_ms: 5_000 }));
    await test.settle(10_000);
    expect(calls).toBe(2);
    expect(test.adapter.texts()).toEqual(['好的，收到']);
    // The first call's answer arrives at 120 s: the abandoned run sends nothing.
    await test.settle(120_000);
    expect(test.adapter.texts()).toEqual(['好的，收到']);
  });
});
