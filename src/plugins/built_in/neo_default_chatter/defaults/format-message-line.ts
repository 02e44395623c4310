import type { Message } from 'moonglass';
import { formatZonedTime, sameDay } from './prompt-time.js';

/** What a message line needs besides the message: the prompt's zone and who is who. */
export interface MessageLineContext {
  /** The zone of every time in the prompt: bot.toml `[bot] timezone`, or the machine's (`resolveTimeZone`). */
  timeZone: string;
  /** Now, epoch ms: a message from another day than today shows its date. */
  nowMs: number;
  /** The bot's own account ids (a mention of one of them is a mention of the bot). */
  selfIds: ReadonlySet<string>;
  /** The bot's name, for mentions of the bot. */
  botName: string;
  /** Display names of people by account id, as far as the conversation shows them. */
  names: ReadonlyMap<string, string>;
}

/** Who sent a message, as the model reads it: the group card when there is one, else the name. */
export function senderLabel(message: Message): string {
  const card = message.senderCard?.trim() ?? '';
  return card !== '' ? card : message.senderName;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `@12345` (a mention the platform gave as a bare account id) becomes `@明明`: the bot's name
 * for the bot, the person's name when the conversation shows it, else `@用户12345`.
 * Mentions the platform already gave by name are left as they are.
 */
export function nameMentions(text: string, message: Message, context: MessageLineContext): string {
  const mentioned = Array.isArray(message.extra.at_users) ? [...new Set(message.extra.at_users.map(String))] : [];
  let named = text;
  for (const id of mentioned) {
    if (id === '') continue;
    const name = context.selfIds.has(id) ? context.botName : context.names.get(id);
    const label = name !== undefined && name !== '' ? name : `用户${id}`;
    // Not followed by another digit: `@123` must not rewrite the start of `@1234`.
    named = named.replace(new RegExp(`@${escapeRegExp(id)}(?![0-9])`, 'g'), () => `@${label}`);
  }
  return named;
}

/** A message's time for its line: `format` as given, with the date first when it is not from today (and `format` has none). */
export function lineTime(message: Message, format: string, context: MessageLineContext): string {
  const today = sameDay(message.time * 1000, context.nowMs, context.timeZone);
  const withDate = today || /%[Ymd]/.test(format) ? format : `%Y-%m-%d ${format}`;
  return formatZonedTime(message.time, withDate, context.timeZone);
}

/**
 * Who wrote a message and which message it is, in the words `send_text` uses: `用户` is the
 * sender's id (`at`), `消息` the message's id (`reply_to`). The bot's own messages say `我`;
 * a reply the platform never received has no id to quote.
 */
export function lineIdentity(message: Message): string {
  const parts = [message.direction === 'outbound' ? '我' : `用户 ${message.senderId}`];
  if (message.extra['undelivered'] !== true) parts.push(`消息 ${message.messageId}`);
  if (message.replyTo !== null && message.replyTo !== '') parts.push(`回复消息 ${message.replyTo}`);
  return parts.join('，');
}

/**
 * One message as a prompt line: `【09:05】明明（用户 10001，消息 4567）： 你好`. The time is in
 * the prompt's zone (`time_format`, a strftime subset); mentions name the person.
 */
export function formatMessageLine(message: Message, timeFormat: string, context: MessageLineContext): string {
  const text = message.processedPlainText !== '' ? message.processedPlainText : message.content;
  return `【${lineTime(message, timeFormat, context)}】${senderLabel(message)}（${lineIdentity(message)}）： ${nameMentions(text, message, context)}`;
}
