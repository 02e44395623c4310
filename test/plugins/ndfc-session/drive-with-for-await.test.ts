import { describe, expect, it } from 'vitest';
import { EventDecision, WaitResumeEvent, type ChatterResult } from 'moonglass';
import type { ConversationSession } from 'moonglass/ndfc';
import { toolReply, useTestHosts } from '../../support/ndfc.js';
import type { TestHost } from '../../../src/testing/create-test-host.js';

/** Keeps the host's own conversation of every stream out of the way: its steps are skipped, so only the test's session reads the messages. */
function skipHostSteps(test: TestHost): void {
  test.host.bus.subscribe('on_chatter_step', (_name, params) => [EventDecision.SUCCESS, { ...params, continue: false }]);
}

async function privateStream(test: TestHost, text: string): Promise<string> {
  const outcome = await test.adapter.send(text);
  if (outcome.status !== 'delivered') throw new Error(`the message was not delivered: ${outcome.status}`);
  return outcome.message.streamId;
}

describe('a ConversationSession driven directly (issue 15, item 2)', () => {
  const start = useTestHosts();

  it('[N-08] [issue 15] for await (const result of session) drives it; session.resume(event) gives the step after a Wait its resume', async () => {
    const test = await start({
      script: [toolReply([{ name: 'send_text', args: { content: '我去查' } }]), toolReply([{ name: 'send_text', args: { content: '查到了三条' } }])],
    });
    skipHostSteps(test);
    const streamId = await privateStream(test, '帮我查一下');
    const session: ConversationSession = test.host.getService('neo_default_chatter:service:chat_core')!.createSession({ streamId });

    const results: ChatterResult['kind'][] = [];
    const driven = (async () => {
      for await (const result of session) {
        results.push(result.kind);
        if (results.length === 1) {
          session.resume(new WaitResumeEvent('sub_agent', { extra: { result: '三条资料' } }));
          continue;
        }
        break;
      }
    })();
    await test.settle(10_000); // the typing delays run on the manual clock
    await driven;

    expect(results).toEqual(['wait', 'wait']);
    expect(test.adapter.texts()).toEqual(['我去查', '查到了三条']);
    expect(test.model.calls).toHaveLength(2);
    const resumePrompt = test.model.calls[1]!.payloads.filter((payload) => payload.role === 'user').at(-1);
    expect(String(resumePrompt?.content)).toContain('三条资料');
  });

  it('[N-05] [issue 15] a session runs once: a second execute() (or for await) throws, naming the stream', async () => {
    const test = await start();
    const session = test.host.getService('neo_default_chatter:service:chat_core')!.createSession({ streamId: 's-once' });
    const first = session.execute();
    expect((await first.next()).value).toMatchObject({ kind: 'failure' }); // no such stream: the run yields Failure
    expect(() => session.execute()).toThrow(/stream s-once has run already: create a new session/);
    expect(() => session[Symbol.asyncIterator]()).toThrow(/has run already/);
  });
});
