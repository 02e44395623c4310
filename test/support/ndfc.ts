import { afterEach } from 'vitest';
import { createTestHost, type TestHost } from '../../src/testing/create-test-host.js';

/** A model reply that calls these tools (ids c0, c1 ...). */
export const toolReply = (calls: { name: string; args: Record<string, unknown> }[]) => ({
  message: '',
  reasoning: '',
  finishReason: 'tool_calls',
  usage: undefined,
  toolCalls: calls.map((call, index) => ({ id: `c${index}`, ...call })),
});

/** A model reply with text and no calls. */
export const textReply = (message: string) => ({ message, reasoning: '', toolCalls: [], finishReason: 'stop', usage: undefined });

/** Starts test hosts and stops them after each test. */
export function useTestHosts(): (options?: Parameters<typeof createTestHost>[0]) => Promise<TestHost> {
  const hosts: TestHost[] = [];
  afterEach(async () => {
    while (hosts.length > 0) await hosts.pop()!.stop();
  });
  return async (options = {}) => {
    const test = await createTestHost(options);
    hosts.push(test);
    return test;
  };
}
