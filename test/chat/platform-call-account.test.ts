import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '../../src/testing.js';

// Issue 17: platform actions go to the account a conversation belongs to. A plugin acting in
// a conversation (a tool call's streamId) names the stream, and the action goes to its account.

describe('ctx.platform.call() in a conversation', () => {
  const hosts: TestHost[] = [];
  afterEach(async () => {
    for (const test of hosts.splice(0)) await test.stop();
  });

  it('with streamId, goes to the account the conversation belongs to; account wins when both are given', async () => {
    const test = await createTestHost();
    hosts.push(test);
    test.adapter.onAction('get_group_member_info', () => ({ role: 'member' }));
    const outcome = await test.adapter.send('hello', { group: '30001', account: '10001' });
    expect(outcome.status).toBe('delivered');
    const streamId = outcome.status === 'delivered' ? outcome.message.streamId : '';
    const plugin = test.host.plugins.get('neo_default_chatter')!;

    await plugin.ctx.platform.call('get_group_member_info', { group_id: '30001', user_id: '20001' }, { streamId });
    await plugin.ctx.platform.call('get_group_member_info', { group_id: '30001', user_id: '20001' }, { streamId, account: '10002' });
    await plugin.ctx.platform.call('get_group_member_info', { group_id: '30001', user_id: '20001' });
    expect(test.adapter.calls.map((call) => call.account ?? null)).toEqual(['10001', '10002', null]);
    await expect(plugin.ctx.platform.call('get_group_member_info', { group_id: '1', user_id: '2' }, { streamId: 'no-such-stream' })).rejects.toThrow(
      /for stream no-such-stream, which is not a known conversation/,
    );
  });

  it('a reply in that conversation goes out on its account', async () => {
    const test = await createTestHost();
    hosts.push(test);
    const outcome = await test.adapter.send('hello', { account: '10001' });
    const streamId = outcome.status === 'delivered' ? outcome.message.streamId : '';
    await test.host.chat.streams.send(streamId, { content: 'on 10001' });
    expect(test.adapter.sent.map((delivery) => [delivery.content, delivery.account])).toContainEqual(['on 10001', '10001']);
  });
});
