import { describe, expect, it } from 'vitest';
import type { ModelCall } from '../../../src/llm/model-client.js';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';
import { INNER, OUTER, forwardServer, groupForwardEvent, longForward, privateForwardEvent } from './fixtures.js';

const PLUGIN_ID = 'forward-message';

/** The tool results the model was shown in this call, oldest first. */
function toolResults(call: ModelCall): string[] {
  return call.payloads.filter((payload) => payload.role === 'tool').map((payload) => String(payload.content));
}

function offeredTools(call: ModelCall): string[] {
  return call.tools.map((declaration) => declaration.function.name);
}

describe('built-in plugin forward-message (with the NDFC chatter and a scripted model)', () => {
  const start = useTestHosts();

  it('a group message with a forward segment fetches the tree; only that stream gains forward_message', async () => {
    const test = await start({ script: [textReply('')] });
    test.adapter.onAction('get_forward_msg', forwardServer({ 'outer-1': OUTER, 'inner-1': INNER }));
    const forward = await test.adapter.send('[聊天记录]', { group: '555', raw: groupForwardEvent('outer-1') });
    const plain = await test.adapter.send('你好', { group: '777', raw: { message: [{ type: 'text', data: { text: '你好' } }] } });
    await test.settle(100);
    expect(forward.status).toBe('delivered');
    expect(plain.status).toBe('delivered');
    if (forward.status !== 'delivered' || plain.status !== 'delivered') return;

    // The outer tree, then the nested forward that carried only its id.
    expect(test.adapter.calls).toEqual([
      { action: 'get_forward_msg', params: { id: 'outer-1' } },
      { action: 'get_forward_msg', params: { id: 'inner-1' } },
    ]);
    expect([...(await test.host.plugins.streamCapabilities(forward.message.streamId))]).toContain('forward_message');
    expect([...(await test.host.plugins.streamCapabilities(plain.message.streamId))]).not.toContain('forward_message');
    // The tool is declared only where its capability is.
    expect(test.host.tools.isOffered('read_forward_message', await test.host.plugins.streamCapabilities(plain.message.streamId))).toBe(false);
    expect(test.host.tools.get('read_forward_message')?.owner).toBe(PLUGIN_ID);
  });

  it('[issue 17] fetches a forward from the account it arrived on: a forward id is known only to that QQ client', async () => {
    const test = await start({ script: [textReply('')] });
    test.adapter.onAction('get_forward_msg', forwardServer({ 'outer-1': OUTER, 'inner-1': INNER }));
    await test.adapter.send('[聊天记录]', { group: '555', raw: groupForwardEvent('outer-1'), account: '10002' });
    await test.settle(100);
    expect(test.adapter.calls.map((call) => [call.params['id'], call.account])).toEqual([
      ['outer-1', '10002'],
      ['inner-1', '10002'],
    ]);
  });

  it('the model reads a private forward (CQ form): layer by layer, nested layer included, placeholders kept without a vision model', async () => {
    const test = await start({
      script: [toolReply([{ name: 'read_forward_message', args: {} }]), toolReply([{ name: 'send_text', args: { content: '看完了' } }])],
    });
    test.adapter.onAction('get_forward_msg', forwardServer({ 'outer-1': OUTER, 'inner-1': INNER }));
    await test.adapter.send('[聊天记录]', { raw: privateForwardEvent('outer-1') });
    await test.settle(15_000);

    expect(test.model.calls.length).toBeGreaterThanOrEqual(2);
    expect(offeredTools(test.model.calls[0]!)).toContain('read_forward_message');
    const [observation] = toolResults(test.model.calls[1]!);
    expect(observation).toBeDefined();
    expect(observation).toMatch(/^合并转发的聊天记录（user 10001 发来，共 2 层 4 条消息）\n第 0–\d+ 字，全文约 \d+ 字：\n/);
    expect(observation).toContain(
      [
        '【第 1 层，3 条】',
        '阿明: 今晚吃什么',
        '小红: [图片]看这只猫',
        '老王: [聊天记录，见第 2 层]',
        '【第 2 层，老王 在第 1 层转发，1 条】',
        '小李: [表情]火锅！',
        '（已读到结尾）',
      ].join('\n'),
    );
    expect(test.adapter.texts()).toEqual(['看完了']);
    // The test host has no vision model (nor, so far, a media service): the image keeps its placeholder.
  });

  it('pages a long forward at page_chars with a next_offset hint; the second page continues where the first stopped', async () => {
    const pages: string[] = [];
    const script = (call: ModelCall) => {
      const results = toolResults(call);
      const last = results.at(-1);
      if (last === undefined) return toolReply([{ name: 'read_forward_message', args: { offset: 0 } }]);
      pages.push(last);
      const next = /offset=(\d+)/.exec(last);
      if (next !== null && pages.length < 2) return toolReply([{ name: 'read_forward_message', args: { offset: Number(next[1]) } }]);
      return toolReply([{ name: 'send_text', args: { content: '读完两页了' } }]);
    };
    const test = await start({ script, pluginConfigs: { [PLUGIN_ID]: '[plugin]\npage_chars = 500\n' } });
    test.adapter.onAction('get_forward_msg', forwardServer({ long: longForward(20) }));
    await test.adapter.send('[聊天记录]', { raw: privateForwardEvent('long') });
    await test.settle(30_000);

    expect(pages).toHaveLength(2);
    const [first, second] = pages as [string, string];
    const nextOffset = Number(/offset=(\d+)/.exec(first)![1]);
    expect(first).toMatch(/（未读完：调用 read_forward_message 并传 offset=\d+ 继续读）$/);
    expect(second).toContain(`第 ${nextOffset}–`);
    const body = (page: string) => page.split('\n').slice(2, -1);
    const firstLines = body(first);
    const secondLines = body(second);
    // Pages end at a line break: every numbered message is on exactly one page, in order.
    const numbers = [...firstLines, ...secondLines].map((line) => /^群友(\d+): 第\1条消息/.exec(line)?.[1]).filter((value) => value !== undefined).map(Number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => index + 1));
    expect(firstLines.join('\n').length).toBeLessThanOrEqual(500);
    expect(secondLines.length).toBeGreaterThan(0);
    expect(test.adapter.texts()).toEqual(['读完两页了']);
  });

  it('a full page at the largest page_chars stays under the host observation cap, uncut', async () => {
    const test = await start({ script: [textReply('')], pluginConfigs: { [PLUGIN_ID]: '[plugin]\npage_chars = 3600\n' } });
    test.adapter.onAction('get_forward_msg', forwardServer({ long: longForward(120) }));
    const sent = await test.adapter.send('[聊天记录]', { raw: privateForwardEvent('long'), userName: '名字很长'.repeat(20) });
    await test.settle(100);
    if (sent.status !== 'delivered') throw new Error('not delivered');
    const context = { streamId: sent.message.streamId, signal: new AbortController().signal, capabilities: new Set(['forward_message']) };
    const page = await test.host.tools.execute({ toolName: 'read_forward_message', callId: 'x', arguments: { offset: 0 } }, context);
    expect(page.success).toBe(true);
    expect(page.observation).not.toContain('…（已截断）');
    expect([...page.observation].length).toBeLessThan(4000);
    expect(page.metadata['next_offset']).toEqual(expect.any(Number));
    const beyond = await test.host.tools.execute({ toolName: 'read_forward_message', callId: 'y', arguments: { offset: 10_000_000 } }, context);
    expect(beyond).toMatchObject({ success: false, errorMessage: expect.stringMatching(/^offset 10000000 超出范围/) });
  });

  it('a get_forward_msg failure is logged at warn with the reason; the plugin keeps working for the next forward', async () => {
    const test = await start({ script: [textReply('')] });
    test.adapter.onAction('get_forward_msg', forwardServer({ 'outer-1': OUTER, 'inner-1': INNER }));
    const broken = await test.adapter.send('[聊天记录]', { group: '555', raw: groupForwardEvent('gone') });
    await test.settle(100);
    const warning = test.logs.find((record) => record.msg === 'could not fetch a forwarded message (get_forward_msg)');
    expect(warning).toMatchObject({ level: 'warn', plugin: PLUGIN_ID, forward_id: 'gone', reason: expect.stringContaining('消息不存在') });
    if (broken.status !== 'delivered') throw new Error('not delivered');
    expect([...(await test.host.plugins.streamCapabilities(broken.message.streamId))]).not.toContain('forward_message');

    await test.adapter.send('[聊天记录]', { group: '555', raw: groupForwardEvent('outer-1') });
    await test.settle(100);
    expect(test.host.plugins.list().find((status) => status.id === PLUGIN_ID)?.state).toBe('loaded');
    expect([...(await test.host.plugins.streamCapabilities(broken.message.streamId))]).toContain('forward_message');
  });

  it('a nested forward that cannot be fetched is noted in its layer and logged; the outer layer is still readable', async () => {
    const test = await start({
      script: [toolReply([{ name: 'read_forward_message', args: {} }]), toolReply([{ name: 'send_text', args: { content: '好' } }])],
    });
    test.adapter.onAction('get_forward_msg', forwardServer({ 'outer-1': OUTER }));
    await test.adapter.send('[聊天记录]', { raw: privateForwardEvent('outer-1') });
    await test.settle(15_000);
    expect(test.logs.find((record) => record.msg === 'could not fetch a nested forward (get_forward_msg)')).toMatchObject({ level: 'warn', forward_id: 'inner-1' });
    const [observation] = toolResults(test.model.calls[1]!);
    expect(observation).toContain('阿明: 今晚吃什么');
    expect(observation).toMatch(/【第 2 层，老王 在第 1 层转发】（没能读取这一层：retcode 100: 消息不存在 \(id inner-1\)）/);
  });

  it('the cache expires after cache_minutes on the host clock, and the capability goes with it', async () => {
    const test = await start({ script: [textReply('')], pluginConfigs: { [PLUGIN_ID]: '[plugin]\ncache_minutes = 10\n' } });
    test.adapter.onAction('get_forward_msg', forwardServer({ 'outer-1': OUTER, 'inner-1': INNER }));
    const sent = await test.adapter.send('[聊天记录]', { group: '555', raw: groupForwardEvent('outer-1') });
    await test.settle(100);
    if (sent.status !== 'delivered') throw new Error('not delivered');
    const { streamId } = sent.message;
    expect([...(await test.host.plugins.streamCapabilities(streamId))]).toContain('forward_message');
    await test.clock.advance(9 * 60_000);
    expect([...(await test.host.plugins.streamCapabilities(streamId))]).toContain('forward_message');
    await test.clock.advance(60_000);
    expect([...(await test.host.plugins.streamCapabilities(streamId))]).not.toContain('forward_message');
  });

  it('keeps only the newest cache_per_stream forwards; index picks an older one', async () => {
    const second = { messages: [{ sender: { user_id: 9, nickname: '第二条的人' }, message: '第二条转发' }] };
    const test = await start({
      script: [toolReply([{ name: 'read_forward_message', args: { index: 2 } }]), toolReply([{ name: 'send_text', args: { content: '好' } }])],
      pluginConfigs: { [PLUGIN_ID]: '[plugin]\ncache_per_stream = 2\n' },
    });
    test.adapter.onAction('get_forward_msg', forwardServer({ 'outer-1': OUTER, 'inner-1': INNER, second, third: longForward(1) }));
    // Three forwards before the chatter gets to answer.
    let streamId = '';
    for (const id of ['outer-1', 'second', 'third']) {
      const sent = await test.adapter.send('[聊天记录]', { raw: privateForwardEvent(id) });
      if (sent.status === 'delivered') streamId = sent.message.streamId;
    }
    await test.settle(15_000);
    const [observation] = toolResults(test.model.calls[1]!);
    expect(observation).toContain('本会话第 2 新的一条');
    expect(observation).toContain('第二条的人: 第二条转发');
    // The oldest one was dropped.
    const context = { streamId, signal: new AbortController().signal, capabilities: new Set(['forward_message']) };
    const third = await test.host.tools.execute({ toolName: 'read_forward_message', callId: 'x', arguments: { index: 3 } }, context);
    expect(third).toMatchObject({ success: false, errorMessage: '这个会话里只缓存了 2 条合并转发，index 最大为 2' });
    const newest = await test.host.tools.execute({ toolName: 'read_forward_message', callId: 'y', arguments: {} }, context);
    expect(newest.observation).toContain('本会话还有 1 条更早的合并转发，可用 index 读取');
    expect(newest.observation).toContain('群友1: 第1条消息');
  });
});
