import { resolveTimeZone, type ChatRuntime, type Message } from 'moonglass';
import { senderLabel, type MessageLineContext } from './format-message-line.js';

/**
 * The context of a stream's message lines, read through the public runtime: the zone from
 * `bot.toml [bot] timezone`, the bot's accounts (bot.toml `[accounts]`, the account the
 * stream's messages arrive on, the sender of its own replies), the bot's name (the nickname
 * of the stream's account, `runtime.personaOf`) and the names of the people
 * the stream's history and unread messages show, the newest name of each winning.
 * `messages` are looked at too (the ones being formatted).
 */
export function messageLineContext(runtime: ChatRuntime, streamId: string, messages: readonly Message[] = []): MessageLineContext {
  // Who is who is read only when a line names someone (a mention given as a bare id): most
  // lines do not, and every prompt line builds this context, so the scan of the stream's
  // messages waits until it is asked for (issue 20: it was ~7% of the host under load).
  let people: { selfIds: Set<string>; names: Map<string, string> } | undefined;
  const whoIsWho = () => (people ??= scanPeople(runtime, streamId, messages));
  return {
    timeZone: resolveTimeZone(runtime.bot.bot.timezone),
    nowMs: runtime.clock.now(),
    get selfIds() {
      return whoIsWho().selfIds;
    },
    get botName() {
      return runtime.personaOf(streamId).nickname;
    },
    get names() {
      return whoIsWho().names;
    },
  };
}

function scanPeople(runtime: ChatRuntime, streamId: string, messages: readonly Message[]): { selfIds: Set<string>; names: Map<string, string> } {
  const stream = runtime.streams.getStream(streamId);
  const parts = [stream?.history ?? [], stream?.unreads ?? [], messages];
  // Oldest first (a stable sort by time); the parts are usually in that order already.
  const known = inTimeOrder(parts) ? parts : [[...parts[0]!, ...parts[1]!, ...parts[2]!].sort((first, second) => first.time - second.time)];
  const selfIds = new Set<string>();
  const names = new Map<string, string>();
  const platforms = new Set([stream?.platform, ...messages.map((message) => message.platform)]);
  for (const platform of platforms) {
    const account = platform !== undefined && Object.hasOwn(runtime.bot.accounts, platform) ? runtime.bot.accounts[platform] : undefined;
    // Only the string entries name accounts; `[accounts."<id>"]` tables are personas.
    if (typeof account === 'string' && account !== '') selfIds.add(account);
  }
  if (stream?.account !== undefined && stream.account !== null) selfIds.add(stream.account);
  for (const part of known) {
    for (const message of part) {
      if (message.direction === 'outbound') {
        if (message.senderId !== '') selfIds.add(message.senderId);
        continue;
      }
      const label = senderLabel(message);
      if (label !== '') names.set(message.senderId, label);
    }
  }
  return { selfIds, names };
}

/** True when the messages of `parts`, one part after another, never go back in time. */
function inTimeOrder(parts: readonly (readonly Message[])[]): boolean {
  let previous = Number.NEGATIVE_INFINITY;
  for (const part of parts) {
    for (const message of part) {
      if (!(message.time >= previous)) return false;
      previous = message.time;
    }
  }
  return true;
}
