import { describe, expect, it } from 'vitest';
import { ChatRulesConfigSchema, type ChatRuleConfigInput } from '../../../src/chat/rules/chat-rules-config.js';
import { matchRule, type RuleTarget } from '../../../src/chat/rules/match-rule.js';
import { ruleSwitchesOff } from '../../../src/chat/rules/rule-switches-off.js';

const group = (groupId: string, account: string | null = '10001'): RuleTarget => ({ platform: 'qq', account, chatType: 'group', groupId });
const privateChat = (account: string | null = '10001'): RuleTarget => ({ platform: 'qq', account, chatType: 'private', groupId: null });
/** 2026-12-01 at hh:mm UTC. */
const utc = (hour: number, minute = 0) => Date.UTC(2026, 11, 1, hour, minute);

function nameAt(rules: ChatRuleConfigInput[], target: RuleTarget, atMs = utc(12), timeZone = 'UTC'): string | undefined {
  return matchRule(ChatRulesConfigSchema.parse(rules), target, atMs, timeZone)?.name;
}

describe('matchRule', () => {
  it('[issue 18.3] groups match those groups only; private = true adds private chats; neither: any chat', () => {
    const rules: ChatRuleConfigInput[] = [{ name: 'g', groups: [111] }, { name: 'p', private: true }, { name: 'any' }];
    expect(nameAt(rules, group('111'))).toBe('g');
    expect(nameAt(rules, group('222'))).toBe('any');
    expect(nameAt(rules, privateChat())).toBe('p');
    expect(nameAt([{ name: 'both', groups: ['111'], private: true }], privateChat())).toBe('both');
    expect(nameAt([{ name: 'both', groups: ['111'], private: true }], group('111'))).toBe('both');
    expect(nameAt([{ name: 'both', groups: ['111'], private: true }], group('222'))).toBeUndefined();
    expect(nameAt([{ name: 'groups only', private: false }], privateChat())).toBeUndefined();
    expect(nameAt([{ name: 'groups only', private: false }], group('9'))).toBe('groups only');
  });

  it('[issue 18.3] accounts match the bot account; a stream without one matches only rules without accounts', () => {
    const rules: ChatRuleConfigInput[] = [{ name: 'a', accounts: [10002] }, { name: 'rest' }];
    expect(nameAt(rules, group('1', '10002'))).toBe('a');
    expect(nameAt(rules, group('1', '10001'))).toBe('rest');
    expect(nameAt(rules, group('1', null))).toBe('rest');
  });

  it('[issue 18.3] hours: a range across midnight, in the [bot] time zone, end excluded', () => {
    const rules: ChatRuleConfigInput[] = [{ name: 'night', hours: ['23:00-07:00'] }];
    expect(nameAt(rules, group('1'), utc(23, 30))).toBe('night');
    expect(nameAt(rules, group('1'), utc(3))).toBe('night');
    expect(nameAt(rules, group('1'), utc(6, 59))).toBe('night');
    expect(nameAt(rules, group('1'), utc(7))).toBeUndefined();
    expect(nameAt(rules, group('1'), utc(12))).toBeUndefined();
    // 15:30 UTC is 23:30 in Shanghai (UTC+8), 16:00 UTC is 00:00 there.
    expect(nameAt(rules, group('1'), utc(15, 30), 'Asia/Shanghai')).toBe('night');
    expect(nameAt(rules, group('1'), utc(20), 'Asia/Shanghai')).toBe('night');
    expect(nameAt(rules, group('1'), utc(23, 30), 'Asia/Shanghai')).toBeUndefined();
    expect(nameAt(rules, group('1'), utc(0), 'Asia/Shanghai')).toBeUndefined();
    expect(nameAt([{ name: 'two', hours: ['08:00-09:00', '12:00-13:00'] }], group('1'), utc(12, 15))).toBe('two');
  });

  it('[issue 18.3] the first matching rule wins; unnamed rules are called rules[N] from 1', () => {
    const rules = ChatRulesConfigSchema.parse([{ groups: ['5'], quiet: true }, { groups: ['5'], frequency: 0.5 }, { frequency: 2 }]);
    expect(matchRule(rules, group('5'), utc(1), 'UTC')).toEqual({ name: 'rules[1]', index: 0, frequency: 1, persona: {}, toolsOff: [], pluginsOff: [], quiet: true });
    expect(matchRule(rules, group('6'), utc(1), 'UTC')).toMatchObject({ name: 'rules[3]', index: 2, frequency: 2 });
    expect(matchRule([], group('6'), utc(1), 'UTC')).toBeUndefined();
  });

  it('[issue 18.3] tools_off by name or signature and plugins_off by plugin id switch a component off', () => {
    const rule = matchRule(ChatRulesConfigSchema.parse([{ tools_off: ['web_search', 'demo:action:poke'], plugins_off: ['dice'] }]), group('1'), utc(1), 'UTC');
    expect(ruleSwitchesOff(rule, { name: 'web_search', signature: 'search:tool:web_search' })).toBe(true);
    expect(ruleSwitchesOff(rule, { name: 'poke', signature: 'demo:action:poke' })).toBe(true);
    expect(ruleSwitchesOff(rule, { name: 'roll', signature: 'dice:tool:roll' })).toBe(true);
    expect(ruleSwitchesOff(rule, { name: 'other', signature: 'demo:tool:other' })).toBe(false);
    expect(ruleSwitchesOff(undefined, { name: 'web_search', signature: 'search:tool:web_search' })).toBe(false);
  });
});
