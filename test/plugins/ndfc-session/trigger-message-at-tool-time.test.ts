import { describe, expect, it } from 'vitest';
import { EventDecision, WaitResumeEvent } from 'moonglass';
import { NdfcEvent } from 'moonglass/ndfc';
import { toolReply, useTestHosts } from '../../support/ndfc.js';

const send = (content: string) => toolReply([{ name: 'send_text', args: { content } }]);

describe(':pick_trigger_message when the tools run (issue 15, item 3)', () => {
  const start = useTestHosts();

  it('[N-25] [issue 15] gets the turn’s unreads and the message being answered, so a replacement can pick the trigger run_tool_call receives', async () => {
    const test = await start({ script: [send('两条都看到了')] });
    const seen: { unreads: string[]; current: string | null }[] = [];
    test.host.bus.subscribe(NdfcEvent.PICK_TRIGGER_MESSAGE, (_name, params) => {
      seen.push({ unreads: params.unreads.map((message) => message.content), current: params.current_message?.content ?? null });
      return [EventDecision.PASS, params];
    }, { weight: 1000 });
    // A replacement that answers the first message of the turn, not the newest.
    test.host.bus.subscribe(NdfcEvent.PICK_TRIGGER_MESSAGE, (_name, params) => [EventDecision.STOP, { ...params, trigger: params.unreads[0] ?? null }], { weight: 200 });
    const triggers: (string | null)[] = [];
    test.host.bus.subscribe(NdfcEvent.RUN_TOOL_CALL, (_name, params) => (triggers.push(params.trigger_msg?.content ?? null), [EventDecision.PASS, params]), { weight: 1000 });

    // Both arrive before the stream's loop ticks, so one turn reads them together.
    await test.adapter.send('第一条');
    await test.adapter.send('第二条');
    await test.settle(5_000);

    expect(test.model.calls).toHaveLength(1);
    expect(seen).toEqual([{ unreads: ['第一条', '第二条'], current: '第二条' }]);
    expect(triggers).toEqual(['第一条']);
    expect(test.adapter.texts()).toEqual(['两条都看到了']);
  });

  it('[N-25] [issue 15] in a turn a resume started, unreads are empty and current_message is the message last answered', async () => {
    const test = await start({ script: [send('稍等'), send('查到了')] });
    const seen: { unreads: string[]; current: string | null }[] = [];
    test.host.bus.subscribe(NdfcEvent.PICK_TRIGGER_MESSAGE, (_name, params) => {
      seen.push({ unreads: params.unreads.map((message) => message.content), current: params.current_message?.content ?? null });
      return [EventDecision.PASS, params];
    });
    const outcome = await test.adapter.send('帮我查一下');
    await test.settle(5_000);
    const streamId = (outcome as { message: { streamId: string } }).message.streamId;
    test.host.getService('neo_default_chatter:service:chat_core')!.resume(streamId, new WaitResumeEvent('sub_agent', { extra: { result: '三条' } }));
    await test.settle(5_000);

    expect(test.adapter.texts()).toEqual(['稍等', '查到了']);
    expect(seen).toEqual([
      { unreads: ['帮我查一下'], current: '帮我查一下' },
      { unreads: [], current: '帮我查一下' },
    ]);
  });
});
