import { describe, expect, it } from 'vitest';
import { EventDecision } from 'moonglass';
import { NdfcEvent } from 'moonglass/ndfc';
import { toolReply, useTestHosts } from '../../support/ndfc.js';

const send = (content: string) => toolReply([{ name: 'send_text', args: { content } }]);

describe('seams whose default does nothing are still published (issue 15, item 4)', () => {
  const start = useTestHosts();

  it('[N-29] [issue 15] :format_tool_result is published for a normal call (default ""), and a handler’s text reaches the model after the call’s result', async () => {
    const test = await start({ script: [send('你好呀'), send('又见面了')] });
    const kinds: string[] = [];
    test.host.bus.subscribe(NdfcEvent.FORMAT_TOOL_RESULT, (_name, params) => (kinds.push(`${params.kind} ${params.call_name} "${params.result_text}"`), [EventDecision.PASS, params]), { weight: 1000 });
    await test.adapter.send('你好');
    await test.settle(5_000);
    // The default's text for a normal call is empty: what the model reads is the action's own result.
    expect(kinds).toEqual(['normal send_text ""']);

    test.host.bus.subscribe(NdfcEvent.FORMAT_TOOL_RESULT, (_name, params) =>
      params.kind === 'normal' ? [EventDecision.STOP, { ...params, result_text: '（对方已读）' }] : [EventDecision.PASS, params],
    { weight: 200 });
    await test.adapter.send('还在吗');
    await test.settle(5_000);
    await test.adapter.send('嗯');
    await test.settle(5_000);
    // The third model call carries the conversation so far, with the second call's result and the handler's text after it.
    const toolResults = test.model.calls[2]!.payloads.filter((payload) => payload.role === 'tool').map((payload) => payload.content);
    expect(toolResults).toEqual(['已发送', '已发送\n（对方已读）']);
  });

  it('[N-26] [issue 15] :build_resume_prompt is published for a message resume (default ""); a handler’s text goes with the new messages', async () => {
    const test = await start({ script: [send('在的'), send('好')] });
    const sources: string[] = [];
    test.host.bus.subscribe(NdfcEvent.BUILD_RESUME_PROMPT, (_name, params) => (sources.push(`${params.source} "${params.prompt}"`), [EventDecision.PASS, params]), { weight: 1000 });
    test.host.bus.subscribe(NdfcEvent.BUILD_RESUME_PROMPT, (_name, params) =>
      params.source === 'message' ? [EventDecision.STOP, { ...params, prompt: '（对方很快回了消息）' }] : [EventDecision.PASS, params],
    { weight: 200 });
    await test.adapter.send('在吗');
    await test.settle(5_000);
    expect(sources).toEqual([]); // the first turn is a new run, not a resume
    await test.adapter.send('帮我个忙');
    await test.settle(5_000);

    expect(sources).toEqual(['message ""']);
    const lastUser = String(test.model.calls[1]!.payloads.filter((payload) => payload.role === 'user').at(-1)?.content);
    expect(lastUser).toContain('帮我个忙');
    expect(lastUser).toContain('（对方很快回了消息）');
    expect(test.adapter.texts()).toEqual(['在的', '好']);
  });
});
