import type { Clock } from '../../kernel/time/clock.js';
import type { Message } from '../message.js';
import type { ActiveChatRule } from './active-chat-rule.js';
import type { ChatRuleConfig } from './chat-rules-config.js';
import { matchRule, type RuleTarget } from './match-rule.js';
import { ruleTargetOfMessage } from './rule-targets.js';

export interface ChatRulesOptions {
  rules: readonly ChatRuleConfig[];
  /** `[bot] timezone` (`''`: the machine's). */
  timeZone: string;
  clock: Clock;
  /**
   * The chat of a stream id: the live stream's, else the stored record's (a stream idle past
   * `idle_evict_seconds` has left memory but its rules still hold); undefined: unknown.
   */
  targetOf(streamId: string): RuleTarget | undefined;
}

/** The host's `bot.toml [[rules]]`, live: replaced as a whole (the console's Save), read per message. */
export class ChatRules {
  #rules: readonly ChatRuleConfig[];
  readonly #options: ChatRulesOptions;

  constructor(options: ChatRulesOptions) {
    this.#options = options;
    this.#rules = [...options.rules];
  }

  /** The rule that applies to the stream at `atMs` (default now); undefined: none, or an unknown stream. */
  ruleFor(streamId: string, atMs: number = this.#options.clock.now()): ActiveChatRule | undefined {
    if (this.#rules.length === 0) return undefined;
    const target = this.#options.targetOf(streamId);
    return target === undefined ? undefined : matchRule(this.#rules, target, atMs, this.#options.timeZone);
  }

  /**
   * The rule that applies to an inbound message's chat at `atMs` (default now), from the
   * message's own facts: what inbound gates use, before a new chat's stream exists.
   */
  ruleForMessage(message: Message, atMs: number = this.#options.clock.now()): ActiveChatRule | undefined {
    if (this.#rules.length === 0) return undefined;
    return matchRule(this.#rules, ruleTargetOfMessage(message), atMs, this.#options.timeZone);
  }

  /** Puts validated rules in use from the next message on. */
  replace(rules: readonly ChatRuleConfig[]): void {
    this.#rules = [...rules];
  }

  /** The rules in use, in order. */
  list(): readonly ChatRuleConfig[] {
    return this.#rules;
  }
}
