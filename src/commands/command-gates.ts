import type { BotConfig } from '../chat/bot-config.js';
import { type GateVerdict, type InboundGate, PASS } from '../chat/inbound-gates.js';
import type { Message } from '../chat/message.js';
import type { ActiveChatRule } from '../chat/rules/active-chat-rule.js';
import { ruleSwitchesOffPlugin } from '../chat/rules/rule-switches-off.js';
import type { StreamApi } from '../chat/stream-api.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import { EventDecision } from '../kernel/event-bus/event-decision.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { ComponentRegistry } from '../kernel/registry/component-registry.js';
import type { Clock } from '../kernel/time/clock.js';
import type { PluginContext } from '../plugin-system/plugin-context.js';
import type { BaseCommand } from './base-command.js';
import type { CommandOperator } from './command-context.js';
import './command-event-payloads.js';
import { findCommand, type RegisteredCommand, registeredCommands, shadowedBy } from './command-index.js';
import { commandHelp, commandUsage } from './command-usage.js';
import { type CommandText, matchCommandText } from './match-command-text.js';
import { parseCommandInput, type ParsedCommandInput } from './parse-command-input.js';
import { levelAllows, levelLabel, levelOf, type PermissionLevel } from './permission-level.js';

export interface CommandGatesOptions {
  readonly registry: ComponentRegistry;
  readonly bus: EventBus;
  readonly streams: StreamApi;
  readonly bot: BotConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The loaded plugin's `ctx` (a command runs with its own plugin's). */
  pluginContextOf(pluginId: string): PluginContext | undefined;
  /** What owner commands may steer. */
  readonly operator: CommandOperator;
  /** The chat's `bot.toml [[rules]]` entry now: commands of its `plugins_off` are unknown there. */
  ruleFor?(message: Message): ActiveChatRule | undefined;
}

const HELP_NAMES = new Set(['help', '帮助']);

/** Whether `name` (as typed) is the built-in `/help` or its alias: built into the commands gate, not registered. */
export function isHelpName(name: string): boolean {
  return HELP_NAMES.has(name.toLowerCase());
}
const HELP_SIGNATURE = 'builtin:command:help';

/**
 * The two inbound gates of commands and permissions: guests (order 100) take every message
 * of a blocklisted sender (stored, never answered, commands included); commands (order 200)
 * take a message that starts with a command prefix (also after an @ of the bot), run the
 * command once the message is stored, and keep it from the chatter unless the command is
 * `passThrough`. In a group, an unknown `/word` not addressed to the bot goes on to the
 * chatter (a slash is common in chat); in a private chat or after an @, it gets a usage reply.
 */
export function createCommandGates(options: CommandGatesOptions): InboundGate[] {
  // Command words another plugin took first, each warned about once per host.
  const warnedShadows = new Set<string>();
  const { bot } = options;
  const prefixes = bot.commands.prefixes;
  const guests: InboundGate = {
    name: 'guests',
    order: 100,
    check: (message) => (levelOf(message, bot) === 'guest' ? { pass: false, reason: 'the sender is on the blocklist' } : PASS),
  };
  const commands: InboundGate = {
    name: 'commands',
    order: 200,
    check: (message) => {
      if (prefixes.length === 0) return PASS;
      const text = matchCommandText({ content: message.content, mentionsBot: message.extra.mentions_bot === true, prefixes });
      return text === undefined ? PASS : decide(options, message, text, warnedShadows);
    },
  };
  return [guests, commands];
}

function warnShadowed(options: CommandGatesOptions, warned: Set<string>, all: readonly RegisteredCommand[], typed: string, winner: RegisteredCommand): void {
  for (const shadowed of shadowedBy(all, typed, winner)) {
    const key = `${typed.toLowerCase()} ${shadowed.signature}`;
    if (warned.has(key)) continue;
    warned.add(key);
    options.logger.warn(
      { word: typed.toLowerCase(), runs: winner.signature, shadowed: shadowed.signature },
      `the command word "${typed.toLowerCase()}" runs ${winner.signature} (registered first); ${shadowed.signature} also claims it and never runs by it: rename it or give it another alias`,
    );
  }
}

function taken(reason: string, afterStored: () => Promise<void>): GateVerdict {
  return { pass: false, reason, afterStored };
}

function decide(options: CommandGatesOptions, message: Message, text: CommandText, warnedShadows: Set<string>): GateVerdict {
  const level = levelOf(message, options.bot);
  const reply = (content: string) => send(options, message, content);
  const rule = options.ruleFor?.(message);
  const all = registeredCommands(options.registry).filter((command) => !ruleSwitchesOffPlugin(rule, command.pluginId));
  if (isHelpName(text.name)) {
    return taken(`the command ${text.prefix}help`, () => runHelp(options, message, text, level, all));
  }
  const command = findCommand(all, text.name);
  if (command === undefined) {
    if (message.chatType === 'group' && !text.addressed) return PASS;
    return taken(`an unknown command ${text.prefix}${text.name}`, () => reply(`未知命令 ${text.prefix}${text.name}，发送 ${text.prefix}help 查看可用命令`));
  }
  warnShadowed(options, warnedShadows, all, text.name, command);
  const { metadata } = command;
  if (!levelAllows(level, metadata.permission)) {
    return taken(`the command ${command.signature} asks for ${metadata.permission}, the sender is ${level}`, () =>
      reply(`没有权限：${text.prefix}${metadata.name} 仅限${levelLabel(metadata.permission)}使用（你是${levelLabel(level)}）`),
    );
  }
  const parsed = parseCommandInput(text.line, metadata);
  if (!parsed.ok) {
    return taken(`bad arguments for ${command.signature}`, () => reply(`${parsed.reason}\n用法：${commandUsage(text.prefix, metadata)}`));
  }
  const run = () => runCommand(options, command, parsed.input, message, text, level);
  if (!metadata.passThrough) return taken(`the command ${command.signature}`, run);
  // The message goes on to be stored and to the chatter; the command runs right after.
  setImmediate(() => void run().catch((error: unknown) => options.logger.error({ signature: command.signature, error: describeError(error) }, 'a pass-through command failed')));
  return PASS;
}

async function send(options: CommandGatesOptions, message: Message, content: string): Promise<void> {
  const outcome = await options.streams.send(message.streamId, { content });
  if (outcome.status === 'failed' || outcome.status === 'cancelled') {
    options.logger.warn({ stream_id: message.streamId, reason: outcome.reason }, 'a command reply was not sent');
  }
}

async function runHelp(options: CommandGatesOptions, message: Message, text: CommandText, level: PermissionLevel, all: readonly RegisteredCommand[]): Promise<void> {
  const usable = all.filter((command) => levelAllows(level, command.metadata.permission));
  const asked = text.line.trim().split(/\s+/u)[0] ?? '';
  const bare = asked.startsWith(text.prefix) ? asked.slice(text.prefix.length) : asked;
  if (bare !== '') {
    const command = findCommand(usable, bare);
    const answer = command === undefined ? `没有可用的命令 ${text.prefix}${bare}，发送 ${text.prefix}help 查看可用命令` : commandHelp(text.prefix, command.metadata);
    return send(options, message, answer);
  }
  const before = await options.bus.publish('before_command', beforePayload(message, HELP_SIGNATURE, 'help', { args: {}, options: {} }, level));
  if (before.decision === EventDecision.STOP) return logVeto(options, HELP_SIGNATURE, message);
  const lines = [`可用命令（你是${levelLabel(level)}）：`, `${text.prefix}help — 列出可用命令；${text.prefix}help <命令> 查看用法`];
  for (const command of usable) lines.push(`${text.prefix}${command.metadata.name} — ${command.metadata.description}`);
  await send(options, message, lines.join('\n'));
}

function beforePayload(message: Message, signature: string, name: string, input: ParsedCommandInput, level: PermissionLevel) {
  return { stream_id: message.streamId, signature, name, args: input.args, options: input.options, level, message };
}

function logVeto(options: CommandGatesOptions, signature: string, message: Message): void {
  options.logger.info({ signature, stream_id: message.streamId, message_id: message.messageId }, `a before_command handler vetoed ${signature}`);
}

async function runCommand(
  options: CommandGatesOptions,
  command: RegisteredCommand,
  input: ParsedCommandInput,
  message: Message,
  text: CommandText,
  level: PermissionLevel,
): Promise<void> {
  const { signature, metadata } = command;
  const before = await options.bus.publish('before_command', beforePayload(message, signature, metadata.name, input, level));
  if (before.decision === EventDecision.STOP) return logVeto(options, signature, message);
  const finalInput: ParsedCommandInput = { args: before.params.args, options: before.params.options };
  const ctx = options.pluginContextOf(command.pluginId);
  const instance = options.registry.get<BaseCommand>(signature);
  if (ctx === undefined || instance === undefined || typeof instance.execute !== 'function') {
    options.logger.warn({ signature }, `${signature} cannot run: its plugin is not loaded or it has no execute()`);
    return;
  }
  const startedAt = options.clock.now();
  let result: { status: 'ok'; reply: string | null } | { status: 'failed'; error: string };
  try {
    const returned = await instance.execute(finalInput, {
      streamId: message.streamId,
      message,
      level,
      prefix: text.prefix,
      invokedAs: text.name,
      reply: (content) => options.streams.send(message.streamId, { content }),
      ctx,
      operator: metadata.permission === 'owner' ? options.operator : undefined,
    });
    const replyText = typeof returned === 'string' && returned.trim() !== '' ? returned : null;
    if (replyText !== null) await send(options, message, replyText);
    result = { status: 'ok', reply: replyText };
  } catch (error) {
    const reason = describeError(error);
    options.logger.warn({ signature, stream_id: message.streamId, error: reason }, `the command ${signature} failed`);
    await send(options, message, `命令 ${text.prefix}${metadata.name} 执行失败：${reason}`);
    result = { status: 'failed', error: reason };
  }
  await options.bus.publish('after_command', { ...finalInputPayload(message, signature, metadata.name, finalInput, level), result, duration_ms: options.clock.now() - startedAt });
}

function finalInputPayload(message: Message, signature: string, name: string, input: ParsedCommandInput, level: PermissionLevel) {
  return beforePayload(message, signature, name, input, level);
}
