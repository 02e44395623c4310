import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventDecision, MoonglassError, WaitResumeEvent } from 'moonglass';
import { NdfcEvent, type NeoChatterService } from 'moonglass/ndfc';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';
import { projectRoot } from '../../support/temp-dir.js';
import type { TestHost } from '../../../src/testing/create-test-host.js';

const send = (content: string) => toolReply([{ name: 'send_text', args: { content } }]);

function chatCore(test: TestHost): NeoChatterService {
  return test.host.getService('neo_default_chatter:service:chat_core')!;
}

async function streamOf(test: TestHost, text: string): Promise<string> {
  const outcome = await test.adapter.send(text);
  if (outcome.status !== 'delivered') throw new Error(`the message was not delivered: ${outcome.status}`);
  return outcome.message.streamId;
}

/** The text of the newest user payload of a model call. */
const lastUserText = (test: TestHost, call: number) => String(test.model.calls[call]!.payloads.filter((payload) => payload.role === 'user').at(-1)?.content);

describe('chat_core.resume: a plugin resumes the host’s own conversation of a stream (issue 15, item 5)', () => {
  const start = useTestHosts();

  it('[N-09] [issue 15] a waiting conversation goes on at once with the prompt :build_resume_prompt makes of the event', async () => {
    const test = await start({ script: [send('我去查一下'), send('查到了：三条')] });
    const sources: string[] = [];
    test.host.bus.subscribe(NdfcEvent.BUILD_RESUME_PROMPT, (_name, params) => (sources.push(params.source), [EventDecision.PASS, params]));
    const streamId = await streamOf(test, '帮我查查明天的天气');
    await test.settle(5_000);
    expect(test.model.calls).toHaveLength(1);

    chatCore(test).resume(streamId, new WaitResumeEvent('sub_agent', { extra: { result: '明天晴' } }));
    await test.settle(5_000);

    expect(sources).toEqual(['sub_agent']);
    expect(test.model.calls).toHaveLength(2);
    expect(lastUserText(test, 1)).toContain('明天晴');
    expect(test.adapter.texts()).toEqual(['我去查一下', '查到了：三条']);
  });

  it('[N-09] [issue 15] a conversation that has ended (Stop) starts again and takes the event; a plugin’s own source works too', async () => {
    const test = await start({ script: [toolReply([{ name: 'stop_conversation', args: { minutes: 30 } }]), send('提醒：该喝水了')] });
    const streamId = await streamOf(test, '拜拜');
    await test.settle(5_000);
    expect(test.model.calls).toHaveLength(1);

    chatCore(test).resume(streamId, new WaitResumeEvent('example.reminder', { extra: { reminder: '喝水' } }));
    await test.settle(5_000);

    expect(test.model.calls).toHaveLength(2);
    expect(lastUserText(test, 1)).toContain('example.reminder');
    expect(lastUserText(test, 1)).toContain('喝水');
    expect(test.adapter.texts()).toEqual(['提醒：该喝水了']);
  });

  it('[N-09] [issue 15] two resumes delivered before the conversation steps are both answered, each once', async () => {
    const test = await start({ script: [send('好'), textReply(''), textReply(''), textReply('')] });
    const streamId = await streamOf(test, '查两件事');
    await test.settle(5_000);

    chatCore(test).resume(streamId, new WaitResumeEvent('sub_agent', { extra: { result: '第一件查完了' } }));
    chatCore(test).resume(streamId, new WaitResumeEvent('sub_agent', { extra: { result: '第二件查完了' } }));
    await test.settle(5_000);
    await test.settle(5_000);

    const prompts = test.model.calls.slice(1).map((_call, index) => lastUserText(test, index + 1));
    expect(prompts).toHaveLength(2);
    expect(prompts.filter((prompt) => prompt.includes('第一件查完了'))).toHaveLength(1);
    expect(prompts.filter((prompt) => prompt.includes('第二件查完了'))).toHaveLength(1);
  });

  it('[issue 15] refuses a message or timer source and a stream the host does not know, with MG_INVALID_ARGUMENT', async () => {
    const test = await start();
    const streamId = await streamOf(test, '你好');
    const refusal = (call: () => void) => {
      try {
        call();
      } catch (error) {
        return MoonglassError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
      }
      return 'accepted';
    };
    expect(refusal(() => chatCore(test).resume(streamId, new WaitResumeEvent('message')))).toMatch(/^MG_INVALID_ARGUMENT: .*event\.source.*the host makes message and timer resumes itself/);
    expect(refusal(() => chatCore(test).resume(streamId, new WaitResumeEvent('timer')))).toMatch(/^MG_INVALID_ARGUMENT/);
    expect(refusal(() => chatCore(test).resume('no-such-stream', new WaitResumeEvent('sub_agent')))).toMatch(/^MG_INVALID_ARGUMENT: .*streamId must be the id of a stream the host knows/);
  });

  it('[N-09] [issue 15] examples/ndfc/sub-agent-resume: a tool’s sub-agent finishes later and the conversation answers with its result', async () => {
    const test = await start({
      plugins: [join(projectRoot, 'examples/ndfc/sub-agent-resume')],
      script: [
        toolReply([{ name: 'start_research', args: { topic: '月璃' } }, { name: 'send_text', args: { content: '稍等' } }]),
        textReply(''), // the follow-up after the tool's result: nothing more to say yet
        send('查到了'),
      ],
    });
    await test.adapter.send('帮我查查月璃');
    await test.settle(2_000);
    expect(test.adapter.texts()).toEqual(['稍等']);
    expect(test.model.calls).toHaveLength(2);

    await test.settle(5_000); // the sub-agent takes 5 s of the host's clock
    expect(test.model.calls).toHaveLength(3);
    expect(lastUserText(test, 2)).toContain('关于「月璃」查到了三条资料');
    expect(test.adapter.texts()).toEqual(['稍等', '查到了']);
  });
});
