import { afterEach, describe, expect, it } from 'vitest';
import { EventDecision, type OnNoticePayload, type OnRequestPayload } from '../../../src/index.js';
import { createTestHost, type TestHost } from '../../../src/testing/create-test-host.js';

// The host side of notices and requests: what an adapter process sends over IPC is validated
// again, then published as on_notice / on_request.

describe('the host takes platform events', () => {
  const hosts: TestHost[] = [];
  afterEach(async () => {
    for (const test of hosts.splice(0)) await test.stop();
  });

  async function host(): Promise<TestHost> {
    const test = await createTestHost({ builtIns: false });
    hosts.push(test);
    return test;
  }

  it('[issue 17] publishes a notice as on_notice with the account and the stream it is about', async () => {
    const test = await host();
    const seen: OnNoticePayload[] = [];
    test.host.bus.subscribe('on_notice', (_event, params) => {
      seen.push(params);
      return [EventDecision.PASS, params];
    });
    const notice = { notice_type: 'group_admin', sub_type: 'unset', group_id: '30001', user_id: '20001' } as const;
    const outcome = await test.host.chat.ingress.receiveEvent({ kind: 'notice', platform: 'qq', self_id: '10000', time: 5, notice }, 'test:adapter:x');
    expect(outcome).toEqual({ status: 'delivered' });
    expect(seen).toEqual([{ platform: 'qq', self_id: '10000', time: 5, stream_id: expect.stringMatching(/^[0-9a-f]{64}$/), adapter_signature: 'test:adapter:x', notice }]);
  });

  it('[issue 17] publishes a request as on_request', async () => {
    const test = await host();
    const seen: OnRequestPayload[] = [];
    test.host.bus.subscribe('on_request', (_event, params) => {
      seen.push(params);
      return [EventDecision.PASS, params];
    });
    const request = { request_type: 'group', sub_type: 'invite', group_id: '30001', user_id: '20001', comment: '', flag: 'f-9' } as const;
    await test.host.chat.ingress.receiveEvent({ kind: 'request', platform: 'qq', self_id: '10000', time: 5, request });
    expect(seen.map((payload) => [payload.self_id, payload.request])).toEqual([['10000', request]]);
  });

  it('[issue 17] refuses a malformed event with the field named, and publishes nothing', async () => {
    const test = await host();
    let published = 0;
    test.host.bus.subscribe('on_notice', (_event, params) => {
      published += 1;
      return [EventDecision.PASS, params];
    });
    expect(await test.host.chat.ingress.receiveEvent({ kind: 'notice', platform: 'qq', time: 5, notice: { notice_type: 'friend_add', user_id: '1' } })).toEqual({
      status: 'invalid',
      reason: 'self_id: is missing',
    });
    expect(await test.host.chat.ingress.receiveEvent({ kind: 'notice', platform: 'qq', self_id: '1', time: 5, notice: { notice_type: 'group_recall', group_id: '3' } })).toEqual({
      status: 'invalid',
      reason: 'notice: user_id: is missing; operator_id: is missing; message_id: is missing',
    });
    expect(published).toBe(0);
  });

  it('[issue 17] a recall of a message the host never stored is published, saying it found nothing to mark', async () => {
    const test = await host();
    const outcome = await test.host.chat.ingress.receiveEvent({
      kind: 'notice',
      platform: 'qq',
      self_id: '10000',
      time: 5,
      notice: { notice_type: 'friend_recall', user_id: '20001', message_id: '404' },
    });
    expect(outcome).toEqual({ status: 'delivered', recalled: false });
  });

  it('[issue 17] ctx.platform.call() goes to the connected adapter and resolves to its answer, or rejects with its reason', async () => {
    const test = await createTestHost();
    hosts.push(test);
    test.adapter.onAction('get_group_member_info', (params) => ({ group_id: 30001, user_id: Number(params['user_id']), role: 'admin' }));
    const plugin = test.host.plugins.get('neo_default_chatter')!;
    const member = await plugin.ctx.platform.call('get_group_member_info', { group_id: '30001', user_id: '20001' }, { account: '10000' });
    expect(member.role).toBe('admin');
    await expect(plugin.ctx.platform.call('set_group_ban', { group_id: '30001', user_id: '20001', duration: 60 })).rejects.toThrow(/no answer for platform action set_group_ban/);
    expect(test.adapter.calls).toContainEqual({ action: 'set_group_ban', params: { group_id: '30001', user_id: '20001', duration: 60 } });
  });
});
