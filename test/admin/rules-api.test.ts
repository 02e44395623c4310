import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settleUntil } from '../support/settle-until.js';
import { useConsoles } from '../support/admin.js';
import { RULES_BOT_CONFIG, RULES_BOT_TOML, writeRulesBotToml } from './rules-fixture.js';

// Issue 18 item 3 through the console's real HTTP server: bot.toml [[rules]] shown and
// edited, written by line (the rest of the file byte for byte), and put in use at once.

const put = (rules: unknown) => ({ method: 'PUT', body: JSON.stringify({ rules }) });
const NDFC = { neo_default_chatter: '[plugin]\ntyping_delay_per_char = 0\ntyping_delay_max_seconds = 0\n' };

describe('the Rules API', () => {
  const startConsole = useConsoles();

  async function start() {
    const started = await startConsole({ botConfig: RULES_BOT_CONFIG, pluginConfigs: NDFC });
    const file = writeRulesBotToml(started.test);
    return { ...started, file };
  }

  it('[issue 18.3] GET /api/rules: the rules as bot.toml holds them, with the name each is known by, the file and the time zone', async () => {
    const { test, api, file } = await start();
    const answer = await api('/rules');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      rules: [
        { name: 'study', rule: { name: 'study', groups: ['100'], frequency: 0.5 } },
        { name: 'rules[2]', rule: { hours: ['23:00-07:00'], quiet: true } },
      ],
      file,
      timeZone: 'Asia/Shanghai',
      inUse: true,
    });
    // Edited by hand since the start: shown as the file holds it, marked as not in use.
    writeRulesBotToml(test, RULES_BOT_TOML.replace('frequency = 0.5', 'frequency = 0.75'));
    expect(await (await api('/rules')).json()).toMatchObject({ rules: [{ name: 'study', rule: { frequency: 0.75 } }, { name: 'rules[2]' }], inUse: false });
  });

  it('[issue 18.3] PUT /api/rules writes only the [[rules]] tables of bot.toml and puts them in use: the next message in the group is not answered under a quiet rule', async () => {
    const { test, api, file } = await start();
    const before = await test.adapter.send('在吗', { group: '100', mentionsBot: true });
    await settleUntil(test, () => test.adapter.sent.length === 1, 'the answer under the old rules');
    const streamId = before.status === 'delivered' ? before.message.streamId : '';
    expect(test.host.chat.runtime.ruleFor(streamId)).toMatchObject({ name: 'study', frequency: 0.5, quiet: false });

    const rules = [{ name: 'study', groups: ['100'], frequency: 0.25, quiet: true, plugins_off: ['web_search'] }, { private: true, persona: { nickname: '小璃' } }];
    const answer = await api('/rules', put(rules));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ saved: true, rules: [{ name: 'study', rule: rules[0] }, { name: 'rules[2]', rule: rules[1] }], file });
    const [head, tail] = [RULES_BOT_TOML.slice(0, RULES_BOT_TOML.indexOf('[[rules]]')), RULES_BOT_TOML.slice(RULES_BOT_TOML.indexOf('\n# who may steer it'))];
    expect(readFileSync(file, 'utf8')).toBe(
      `${head}[[rules]]\nname = "study"\ngroups = ["100"]\nfrequency = 0.25\nquiet = true\nplugins_off = ["web_search"]\n\n# nights are quiet\n[[rules]]\nprivate = true\npersona = { nickname = "小璃" }\n${tail}`,
    );
    expect(test.host.chat.rules.list().map((rule) => rule.name)).toEqual(['study', undefined]);
    expect(test.host.chat.runtime.ruleFor(streamId)).toMatchObject({ name: 'study', frequency: 0.25, quiet: true, pluginsOff: ['web_search'] });

    const after = await test.adapter.send('还在吗', { group: '100', mentionsBot: true });
    expect(after.status).toBe('stopped'); // quiet now: the silence gate stores it, nothing answers
    await test.settle(5_000);
    expect(test.adapter.sent).toHaveLength(1);
    expect(test.host.chat.database.messages.history(streamId, 10).map((message) => message.content)).toContain('还在吗');
    expect(await (await api('/rules')).json()).toMatchObject({ rules: [{ name: 'study', rule: rules[0] }, { name: 'rules[2]', rule: rules[1] }], inUse: true });
  });

  it('[issue 18.3] a bad rule is refused with 400 naming every field (rules.0.hours.0, rules.1.frequency, rules.1.frequncy); the file and the rules in use stay', async () => {
    const { test, api, file } = await start();
    const answer = await api('/rules', put([{ name: 'study', groups: ['100'], hours: ['25:00-07:00'] }, { frequency: -1, frequncy: 2 }]));
    expect(answer.status).toBe(400);
    const { errors } = (await answer.json()) as { errors: { field: string; reason: string }[] };
    expect(errors.map((error) => error.field).sort()).toEqual(['rules.0.hours.0', 'rules.1.frequency', 'rules.1.frequncy']);
    expect(errors.find((error) => error.field === 'rules.0.hours.0')!.reason).toContain('the start is not a time of day');
    expect(errors.find((error) => error.field === 'rules.1.frequncy')!.reason).toContain('unknown setting');
    expect(readFileSync(file, 'utf8')).toBe(RULES_BOT_TOML);
    expect(test.host.chat.rules.list().map((rule) => rule.frequency)).toEqual([0.5, 1]);

    const notAList = await api('/rules', { method: 'PUT', body: JSON.stringify({ rules: { name: 'x' } }) });
    expect(notAList.status).toBe(400);
    expect(await notAList.json()).toEqual({ errors: [{ field: 'rules', reason: 'the body must be {"rules": [ … ]}, the list of rules' }] });
  });

  it('[issue 18.3] rules written inline in bot.toml are not rewritten: 422 with the reason, the file unchanged', async () => {
    const { test, api } = await start();
    const inline = 'rules = [{ name = "study", groups = ["100"] }]\n\n[bot]\ntimezone = "Asia/Shanghai"\n';
    const file = writeRulesBotToml(test, inline);
    const answer = await api('/rules', put([{ name: 'other' }]));
    expect(answer.status).toBe(422);
    expect(await answer.json()).toEqual({
      errors: [{ field: 'rules', reason: `${file} writes rules in a way that cannot be rewritten by line (inline or as dotted keys); write it as [[rules]] tables by hand once` }],
    });
    expect(readFileSync(file, 'utf8')).toBe(inline);
  });
});
