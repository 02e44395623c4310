import { describe, expect, it } from 'vitest';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';

describe('NDFC TOOL_EXEC rules', () => {
  const start = useTestHosts();

  it('[N-07] [N-28] a call repeated with the same arguments is skipped with the seed’s text; the first runs', async () => {
    const twice = toolReply([
      { name: 'send_text', args: { content: '只说一次' } },
      { name: 'send_text', args: { content: '只说一次' } },
    ]);
    const test = await start({ script: [twice] });
    await test.adapter.send('hi');
    await test.settle(15_000);
    expect(test.adapter.texts()).toEqual(['只说一次']);
  });

  it('[N-07] with enable_action_suspend off, an action-only round goes to FOLLOW_UP and asks the model again', async () => {
    const test = await start({
      script: [toolReply([{ name: 'send_text', args: { content: '第一句' } }]), textReply('（想了想，不再说了）')],
      pluginConfigs: { neo_default_chatter: '[plugin]\nenable_action_suspend = false\n' },
    });
    await test.adapter.send('hi');
    await test.settle(15_000);
    expect(test.model.calls).toHaveLength(2);
    expect(test.model.calls[1]!.payloads.at(-1)).toMatchObject({ role: 'tool' });
  });

  it('[N-07] with enable_action_suspend on (default), an action-only round waits without a second model request', async () => {
    const test = await start({ script: [toolReply([{ name: 'send_text', args: { content: '第一句' } }])] });
    await test.adapter.send('hi');
    await test.settle(15_000);
    expect(test.model.calls).toHaveLength(1);
  });

  it('[N-07] a tool result leads to FOLLOW_UP: a second model request that sees it', async () => {
    const test = await start({
      plugins: ['plugins/dice'],
      script: [toolReply([{ name: 'roll_dice', args: { count: 1, sides: 6 } }]), toolReply([{ name: 'send_text', args: { content: '掷好了' } }])],
    });
    await test.adapter.send('掷个骰子');
    await test.settle(15_000);
    expect(test.model.calls).toHaveLength(2);
    const toolResult = test.model.calls[1]!.payloads.find((payload) => payload.role === 'tool');
    expect(String(toolResult?.content)).toMatch(/^1d6: \d = \d$/);
    expect(test.adapter.texts()).toEqual(['掷好了']);
  });

  it('[N-07] pass_and_wait skips the wait when new messages arrived meanwhile', async () => {
    const test = await start({
      script: [
        toolReply([{ name: 'send_text', args: { content: '嗯嗯嗯嗯嗯嗯' } }, { name: 'pass_and_wait', args: { seconds: 600 } }]),
        toolReply([{ name: 'send_text', args: { content: '看到新消息了' } }]),
      ],
    });
    await test.adapter.send('第一条');
    await test.settle(1_000); // the typing delay of the first send (3 s) is still running
    await test.adapter.send('第二条');
    await test.settle(15_000);
    expect(test.adapter.texts()).toEqual(['嗯嗯嗯嗯嗯嗯', '看到新消息了']);
  });
});
