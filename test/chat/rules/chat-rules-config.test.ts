import { describe, expect, it } from 'vitest';
import { BotConfigSchema } from '../../../src/chat/bot-config.js';
import { ChatRulesConfigSchema } from '../../../src/chat/rules/chat-rules-config.js';
import { configIssues } from '../../../src/kernel/config/validate-config.js';

function issuesOf(rules: unknown): { path: string; reason: string }[] {
  const result = BotConfigSchema.safeParse({ rules });
  if (result.success) throw new Error('expected the rules to be refused');
  return configIssues(result.error);
}

describe('bot.toml [[rules]]', () => {
  it('[issue 18.3] defaults: no rules; a rule takes frequency 1, no persona, nothing off, not quiet', () => {
    expect(BotConfigSchema.parse({}).rules).toEqual([]);
    expect(ChatRulesConfigSchema.parse([{ groups: [123456, ' 654321 '], accounts: [10001, '10002'] }])).toEqual([
      { groups: ['123456', '654321'], accounts: ['10001', '10002'], frequency: 1, persona: {}, tools_off: [], plugins_off: [], quiet: false },
    ]);
  });

  it('[issue 18.3] an unknown key is refused at its own path, also inside persona', () => {
    expect(issuesOf([{}, { frequncy: 2, persona: { nick: 'x' } }])).toEqual([
      { path: 'rules.1.persona.nick', reason: expect.stringContaining('unknown setting: this table takes nickname, aliases') },
      { path: 'rules.1.frequncy', reason: expect.stringContaining('unknown setting: this table takes name, accounts, groups') },
    ]);
  });

  it('[issue 18.3] hours: bad format, out of range and empty ranges are refused naming the value; crossing midnight is fine', () => {
    expect(ChatRulesConfigSchema.parse([{ hours: ['23:00-07:00', '00:00-24:00', '9:30 - 12:00'] }])[0]!.hours).toEqual(['23:00-07:00', '00:00-24:00', '9:30 - 12:00']);
    const issues = issuesOf([{ hours: ['23-07'] }, { hours: ['08:00-08:00', '25:00-26:00', '10:00-10:60'] }]);
    expect(issues.map((issue) => issue.path)).toEqual(['rules.0.hours.0', 'rules.1.hours.0', 'rules.1.hours.1', 'rules.1.hours.2']);
    expect(issues[0]!.reason).toContain('"23-07" is not a time range: write "HH:MM-HH:MM"');
    expect(issues[1]!.reason).toContain('"08:00-08:00" is an empty range');
    expect(issues[2]!.reason).toContain('"25:00-26:00": the start is not a time of day');
    expect(issues[3]!.reason).toContain('"10:00-10:60": the end is not a time of day');
  });

  it('[issue 18.3] frequency below 0, a bad group id, a non-table rule and a wrong type are refused at their paths', () => {
    const issues = issuesOf([{ frequency: -1, groups: [1.5], private: 'yes' }, 'night']);
    expect(issues.map((issue) => issue.path)).toEqual(['rules.0.groups.0', 'rules.0.private', 'rules.0.frequency', 'rules.1']);
    expect(issues.find((issue) => issue.path === 'rules.0.groups.0')!.reason).toContain('number 1.5 is not a group id');
    expect(issues.find((issue) => issue.path === 'rules.0.frequency')!.reason).toContain('must be 0 or more');
    expect(issues.find((issue) => issue.path === 'rules.1')!.reason).toContain('"night" is not a rule');
  });
});
