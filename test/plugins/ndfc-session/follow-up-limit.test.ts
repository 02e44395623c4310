import { describe, expect, it } from 'vitest';
import { toolReply, useTestHosts } from '../../support/ndfc.js';

const NO_SUSPEND = '[plugin]\nenable_action_suspend = false\n';

describe('NDFC stops a model that calls tools forever', () => {
  const start = useTestHosts();

  it('[issue 15] a model that never stops calling tools is asked at most max_follow_up_rounds times after the first request, then the turn waits, with a warning', async () => {
    let count = 0;
    const test = await start({
      script: () => toolReply([{ name: 'send_text', args: { content: `第 ${(count += 1)} 句` } }]),
      pluginConfigs: { neo_default_chatter: NO_SUSPEND },
    });
    await test.adapter.send('说点什么');
    await test.settle(120_000);
    expect(test.model.calls).toHaveLength(1 + 8);
    expect(test.adapter.texts()).toHaveLength(9);
    expect(test.logs.find((record) => String(record['msg']).includes('max_follow_up_rounds'))).toMatchObject({ level: 'warn', follow_ups: 8, limit: 8 });

    // The next message starts a new turn with a fresh allowance.
    await test.adapter.send('还有吗');
    await test.settle(120_000);
    expect(test.model.calls).toHaveLength(18);
  });

  it('[issue 15] the same repeated call (every one skipped as a duplicate) ends too, and the limit is a setting', async () => {
    const test = await start({
      script: [toolReply([{ name: 'send_text', args: { content: '好的' } }])],
      pluginConfigs: { neo_default_chatter: `${NO_SUSPEND}max_follow_up_rounds = 2\n` },
    });
    await test.adapter.send('帮我记一下');
    await test.settle(60_000);
    expect(test.model.calls).toHaveLength(3);
    expect(test.adapter.texts()).toEqual(['好的']);
  });
});
