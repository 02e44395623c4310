import type { StreamRecord } from '../../storage/stream-repository.js';
import type { ChatStream } from '../chat-stream.js';
import type { Message } from '../message.js';
import type { RuleTarget } from './match-rule.js';

/**
 * The chat an inbound message belongs to, as a rule matches it. Inbound gates match on this,
 * not on the stream: a message is gated before its stream is stored (a new chat) or back in
 * memory (a chat idle past `idle_evict_seconds`).
 */
export function ruleTargetOfMessage(message: Message): RuleTarget {
  const account = message.extra['account'];
  return {
    platform: message.platform,
    account: typeof account === 'string' ? account : null,
    chatType: message.chatType,
    groupId: message.chatType === 'group' ? (message.extra.group_id ?? null) : null,
  };
}

/** The chat of a stored stream (one that is not in memory now), as a rule matches it. */
export function ruleTargetOfRecord(record: StreamRecord): RuleTarget {
  return { platform: record.platform, account: record.account ?? null, chatType: record.chatType, groupId: record.groupId };
}

/** The chat of a stream in memory, as a rule matches it. */
export function ruleTargetOfStream(stream: ChatStream): RuleTarget {
  return { platform: stream.platform, account: stream.account, chatType: stream.chatType, groupId: stream.group?.id ?? null };
}
