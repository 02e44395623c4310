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

/**
 * What the demo model repeats: the newest line of the user's text. A chatter's prompt wraps
 * messages (NDFC: a `<new_messages>` block of `【time】name [id]： text` lines), so the block
 * is looked into, tag-only lines are skipped and a `【…】name：` prefix is dropped.
 */
export function newestLine(text: string): string {
  const block = /<new_messages>([\s\S]*?)<\/new_messages>/.exec(text)?.[1] ?? text;
  const lines = block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^<\/?[\w-]+>$/.test(line));
  return (lines.at(-1) ?? text).replace(/^【[^】]*】[^：:]*[：:]\s*/, '');
}

/**
 * The offline demo model's answer to `call` (the rule is documented on `ScriptedModel`).
 * `callNumber` makes tool call ids unique across a conversation.
 */
export function demoReply(call: ModelCall, callNumber: number): ModelReply {
  const declared = new Set(call.tools.map((tool) => tool.function.name));
  const id = (name: string): string => `scripted_${callNumber}_${name}`;
  const last = [...call.payloads].reverse().find((payload) => payload.role !== 'system');
  const text = last?.role === 'user' ? payloadText(last).trim() : '';
  if (text === '') {
    // (b) nothing new from the user (a tool result, an assistant turn, or no user text): stop here.
    return reply('', declared.has('pass_and_wait') ? [{ id: id('pass_and_wait'), name: 'pass_and_wait', args: {} }] : []);
  }
  const command = findToolCommand(text, declared);
  if (command !== undefined) return reply('', [{ id: id(command.name), name: command.name, args: command.args }]);
  const content = DEMO_REPLY_PREFIX + Array.from(newestLine(text)).slice(0, DEMO_ECHO_MAX_CHARS).join('');
  if (declared.has('send_text')) return reply('', [{ id: id('send_text'), name: 'send_text', args: { content } }]);
  return reply(content, []);
}
