import { describe, expect, it } from 'vitest';
import { SequenceRandom } from '../../../src/kernel/time/random.js';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';

const SUB_AGENT_ON = { neo_default_chatter: '[plugin]\nenable_sub_agent_decision = true\n' };

describe('[N-35] the sub-agent decision (weight 50) decides what the probability gate let by', () => {
  const start = useTestHosts();

  it('answers when the sub-agent says respond: true', async () => {
    const test = await start({
      random: new SequenceRandom([0.99]),
      pluginConfigs: SUB_AGENT_ON,
      script: [textReply('{"respond": true, "reason": "有人在问她"}'), toolReply([{ name: 'send_text', args: { content: '我在' } }])],
    });
    await test.adapter.send('有人知道吗', { group: 'g1' });
    await test.settle(15_000);
    expect(test.adapter.texts()).toEqual(['我在']);
    expect(test.model.calls[0]!.payloads[0]).toMatchObject({ role: 'system' });
  });

  it('stays silent when the sub-agent says respond: false (the unreads stay for later)', async () => {
    const test = await start({
      random: new SequenceRandom([0.99]),
      pluginConfigs: SUB_AGENT_ON,
      script: [textReply('{"respond": false, "reason": "闲聊"}')],
    });
    await test.adapter.send('今天吃什么', { group: 'g1' });
    await test.settle(15_000);
    expect(test.adapter.texts()).toEqual([]);
    const [streamId] = test.host.chat.streams.activeStreamIds();
    expect(test.host.chat.streams.fetchUnreads(streamId!).map((message) => message.content)).toEqual(['今天吃什么']);
  });

  it('lets the message through when the sub-agent call fails (fail-open)', async () => {
    let call = 0;
    const test = await start({
      random: new SequenceRandom([0.99]),
      pluginConfigs: SUB_AGENT_ON,
      script: () => {
        call += 1;
        if (call === 1) throw new Error('model down');
        return toolReply([{ name: 'send_text', args: { content: '我来了' } }]);
      },
    });
    await test.adapter.send('在吗', { group: 'g1' });
    await test.settle(15_000);
    expect(test.adapter.texts()).toEqual(['我来了']);
  });
});
