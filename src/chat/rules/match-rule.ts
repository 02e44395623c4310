import type { ChatType } from '../message.js';
import type { ActiveChatRule } from './active-chat-rule.js';
import type { ChatRuleConfig } from './chat-rules-config.js';
import { withinHours } from './hour-range.js';

/** The facts of a conversation a rule matches on. */
export interface RuleTarget {
  readonly platform: string;
  /** The bot account it belongs to; null: an adapter without accounts. */
  readonly account: string | null;
  readonly chatType: ChatType;
  /** The group's id; null in a private chat. */
  readonly groupId: string | null;
}

function matchesChat(rule: ChatRuleConfig, target: RuleTarget): boolean {
  const isPrivate = target.chatType === 'private';
  if (rule.groups !== undefined) {
    if (isPrivate) return rule.private === true;
    return target.groupId !== null && rule.groups.includes(target.groupId);
  }
  if (rule.private === undefined) return true;
  return rule.private === isPrivate;
}

function matchesHours(rule: ChatRuleConfig, atMs: number, timeZone: string): boolean {
  return rule.hours === undefined || withinHours(rule.hours, atMs, timeZone);
}

/** A rule as it applies: its settings with what it leaves out at their defaults. */
export function activeRuleOf(rule: ChatRuleConfig, index: number): ActiveChatRule {
  return {
    name: rule.name ?? `rules[${index + 1}]`,
    index,
    frequency: rule.frequency,
    persona: rule.persona,
    toolsOff: rule.tools_off,
    pluginsOff: rule.plugins_off,
    quiet: rule.quiet,
  };
}

/**
 * The first rule whose accounts, chat (groups, private) and hours (local time in `timeZone`;
 * `''`: the machine's) all match `target` at `atMs`; a key a rule leaves out matches anything.
 */
export function matchRule(rules: readonly ChatRuleConfig[], target: RuleTarget, atMs: number, timeZone: string): ActiveChatRule | undefined {
  for (const [index, rule] of rules.entries()) {
    if (rule.accounts !== undefined && (target.account === null || !rule.accounts.includes(target.account))) continue;
    if (!matchesChat(rule, target) || !matchesHours(rule, atMs, timeZone)) continue;
    return activeRuleOf(rule, index);
  }
  return undefined;
}
