import type { Clock } from '../../kernel/time/clock.js';
import type { ChatStream } from '../chat-stream.js';
import type { Message } from '../message.js';
import type { ActiveChatRule } from './active-chat-rule.js';
import type { ChatRuleConfig } from './chat-rules-config.js';
import { matchRule } from './match-rule.js';

export interface ChatRulesOptions {
  rules: readonly ChatRuleConfig[];
  /** `[bot] timezone` (`''`: the machine's). */
  timeZone: string;
  clock: Clock;
  /** The live stream of an id (the stream manager's `getStream`). */
  streamOf(streamId: string): ChatStream | undefined;
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
    const stream = this.#options.streamOf(streamId);
    if (stream === undefined) return undefined;
    const target = { platform: stream.platform, account: stream.account, chatType: stream.chatType, groupId: stream.group?.id ?? null };
    return matchRule(this.#rules, target, atMs, this.#options.timeZone);
  }

  /**
   * The rule that applies to an inbound message's chat at `atMs` (default now), from the
   * message's own facts: what inbound gates use, before a new chat's stream exists.
   */
  ruleForMessage(message: Message, atMs: number = this.#options.clock.now()): ActiveChatRule | undefined {
    if (this.#rules.length === 0) return undefined;
    const groupId = typeof message.extra.group_id === 'string' ? message.extra.group_id : null;
    const account = typeof message.extra['account'] === 'string' ? message.extra['account'] : null;
    return matchRule(this.#rules, { platform: message.platform, account, chatType: message.chatType, groupId }, atMs, this.#options.timeZone);
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
