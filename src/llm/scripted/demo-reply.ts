import type { ModelCall, ModelReply } from '../model-client.js';
import { payloadText } from '../payload-text.js';
import type { ToolCall } from '../tool-call.js';
import { findToolCommand } from './find-tool-command.js';

/** The prefix of every text the offline demo model sends. */
export const DEMO_REPLY_PREFIX = '（演示模型）收到：';

/** Longest part of the user's text the demo model repeats, in characters. */
export const DEMO_ECHO_MAX_CHARS = 200;

function reply(message: string, toolCalls: ToolCall[]): ModelReply {
  return { message, reasoning: '', toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop', usage: undefined };
}

/** A line that opens a message in a chatter's prompt (NDFC: `【09:05】明明（用户 10001，消息 4567）： 你好`). */
const MESSAGE_LINE = /^【[^】]*】[^：:]*[：:]\s*/;

/**
 * The newest message of the user's text, which is all the demo model reads: a chatter's
 * prompt also carries the conversation's history (NDFC: a `<history>` block, and a
 * `<new_messages>` block of message lines), and a `!tool` command there was answered
 * long ago. In a `<new_messages>` block it is the last message line with the lines after it
 * (a message of several lines), its `【time】name：` prefix dropped; without one, the text
 * without its `<history>` blocks. Tag-only lines are skipped.
 */
export function newestMessage(text: string): string {
  const block = /<new_messages>([\s\S]*?)<\/new_messages>/.exec(text)?.[1] ?? text.replace(/<history>[\s\S]*?<\/history>/g, '');
  const lines = block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^<\/?[\w-]+>$/.test(line));
  const start = lines.findLastIndex((line) => MESSAGE_LINE.test(line));
  if (start < 0) return lines.join('\n');
  return [lines[start]!.replace(MESSAGE_LINE, ''), ...lines.slice(start + 1)].join('\n').trim();
}

/**
 * The offline demo model's answer to `call` (the rule is documented on `ScriptedModel`).
 * `callNumber` makes tool call ids unique across a conversation.
 */
export function demoReply(call: ModelCall, callNumber: number): ModelReply {
  const declared = new Set(call.tools.map((tool) => tool.function.name));
  const id = (name: string): string => `scripted_${callNumber}_${name}`;
  const last = [...call.payloads].reverse().find((payload) => payload.role !== 'system');
  // Only the newest message counts: a command in the history was run when it was new.
  const text = last?.role === 'user' ? newestMessage(payloadText(last).trim()) : '';
  if (text === '') {
    // (b) nothing new from the user (a tool result, an assistant turn, or no user text): stop here.
    return reply('', declared.has('pass_and_wait') ? [{ id: id('pass_and_wait'), name: 'pass_and_wait', args: {} }] : []);
  }
  const command = findToolCommand(text, declared);
  if (command !== undefined) return reply('', [{ id: id(command.name), name: command.name, args: command.args }]);
  // The echo is one line: the last of the newest message.
  const content = DEMO_REPLY_PREFIX + Array.from(text.split('\n').at(-1) ?? '').slice(0, DEMO_ECHO_MAX_CHARS).join('');
  if (declared.has('send_text')) return reply('', [{ id: id('send_text'), name: 'send_text', args: { content } }]);
  return reply(content, []);
}
