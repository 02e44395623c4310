import { describe, expect, it } from 'vitest';
import { WaitResumeEvent } from 'moonglass';
import { SequenceRandom } from '../../../src/kernel/time/random.js';
import { toolReply, useTestHosts } from '../../support/ndfc.js';

describe('NDFC resume sources and early wake', () => {
  const start = useTestHosts();

  it('[N-09] a sub-agent finishing resumes the waiting session with a prompt built by :build_resume_prompt', async () => {
    const test = await start();
    const outcome = await test.adapter.send('帮我查一下');
    await test.settle(15_000);
    expect(test.model.calls).toHaveLength(1);
    const streamId = (outcome as { message: { streamId: string } }).message.streamId;
    test.host.chat.loop.resume(streamId, new WaitResumeEvent('sub_agent', { extra: { result: '查到了' } }));
    await test.settle(15_000);
    expect(test.model.calls).toHaveLength(2);
    const lastUser = test.model.calls[1]!.payloads.filter((payload) => payload.role === 'user').at(-1);
    expect(String(lastUser?.content)).not.toBe('');
  });

  it('[N-07] [N-30] with enable_stop_direct_message_wake on, a private message may wake a stopped stream early', async () => {
    const stop = toolReply([{ name: 'stop_conversation', args: { minutes: 30 } }]);
    const test = await start({
      script: [stop, toolReply([{ name: 'send_text', args: { content: '我又来了' } }])],
      random: new SequenceRandom([0.2]),
      pluginConfigs: { neo_default_chatter: '[plugin]\nenable_stop_direct_message_wake = true\nstop_direct_message_wake_probability = 0.5\n' },
    });
    await test.adapter.send('拜拜');
    await test.settle(5_000);
    await test.adapter.send('等等，还有一件事');
    await test.settle(10_000);
    expect(test.adapter.texts()).toEqual(['我又来了']);
  });
});
