import type { AdapterSupervisor } from '../adapters/adapter-supervisor.js';
import { personaFor } from '../chat/bot-accounts.js';
import type { BotConfig } from '../chat/bot-config.js';
import type { Message } from '../chat/message.js';
import { createSilenceGate } from '../chat/silence/silence-gate.js';
import { silenceOf } from '../chat/silence/silence-of.js';
import { createCommandGates, isHelpName } from '../commands/command-gates.js';
import type { CommandAccount, CommandOperator } from '../commands/command-context.js';
import { findCommand, registeredCommands } from '../commands/command-index.js';
import { matchCommandText } from '../commands/match-command-text.js';
import { levelOf } from '../commands/permission-level.js';
import type { ComponentRegistry } from '../kernel/registry/component-registry.js';
import { localDayOf } from '../kernel/time/local-day.js';
import { resolveTimeZone } from '../kernel/time/zoned-time.js';
import { savePluginEnabled } from '../plugin-system/config/save-plugin-enabled.js';
import type { Host } from './create-host.js';

/**
 * Adds the guests (100), silence (150) and commands (200) inbound gates to the host's chat,
 * with the operator controls owner commands get. Returns the removal of the gates.
 */
export function wireCommands(host: Host): () => void {
  const chat = host.chat;
  const startedAt = host.clock.now();
  const operator: CommandOperator = {
    startedAt,
    models: chat.models,
    // "Today" as the bot reads it: its own time zone's day, as the times /status shows beside it.
    messagesToday: () => chat.storage.messages.countSince(Math.floor(localDayOf(host.clock.now(), chat.bot.bot.timezone).start / 1000)),
    plugins: () => host.plugins.list(),
    reloadPlugin: (id) => host.plugins.reload(id),
    setPluginEnabled: async (id, enabled) => {
      const { folder, file, model } = await host.plugins.configOf(id);
      const switched = savePluginEnabled(folder, model, enabled, file);
      if (!switched.ok) throw new Error(`${file}: cannot write enabled = ${enabled}: ${switched.errors.map((error) => `${error.field} ${error.reason}`).join('; ')}`);
      return host.plugins.reload(id);
    },
    timeZone: resolveTimeZone(chat.bot.bot.timezone),
    mute: (streamId, untilMs, by) => void chat.mutes.mute(streamId, untilMs, by),
    unmute: (streamId) => chat.mutes.unmute(streamId),
    silenceOf: (streamId) => chat.runtime.silenceOf(streamId),
    accounts: () => host.accountsSource?.(),
  };
  const silence = createSilenceGate({
    // Matched on the message's own chat: its stream may not be stored (a new chat) or in memory (idle) yet.
    silenceOf: (message, atMs) =>
      silenceOf({ mutes: chat.mutes, ruleFor: () => chat.rules.ruleForMessage(message, atMs) }, message.streamId, atMs),
    letThrough: (message) => isOwnerCommand(message, chat.bot, host.registry),
    clock: host.clock,
    logger: host.logger,
  });
  const removals = [
    ...createCommandGates({
      registry: host.registry,
      bus: host.bus,
      streams: chat.runtime.streams,
      bot: chat.bot,
      clock: host.clock,
      logger: host.logger,
      pluginContextOf: (pluginId) => host.plugins.get(pluginId)?.ctx,
      operator,
      ruleFor: (message) => chat.rules.ruleForMessage(message),
    }),
    silence,
  ].map((gate) => chat.gates.add(gate));
  return () => {
    for (const remove of removals) remove();
  };
}

/**
 * True for an owner's message naming a command (a registered one, or `/help`): it passes a
 * silent chat's gate and runs. An owner's unknown `/word` stays silent like any message.
 */
function isOwnerCommand(message: Message, bot: BotConfig, registry: ComponentRegistry): boolean {
  if (levelOf(message, bot) !== 'owner') return false;
  const text = matchCommandText({ content: message.content, mentionsBot: message.extra.mentions_bot === true, prefixes: bot.commands.prefixes });
  if (text === undefined) return false;
  return isHelpName(text.name) || findCommand(registeredCommands(registry), text.name) !== undefined;
}

/**
 * The accounts a running adapter reports, as `/status` shows them: every account it has
 * seen (OneBot: one per connection), or, for an adapter without accounts (the console), one
 * named by its self id (else `bot`).
 */
export function adapterAccounts(supervisor: AdapterSupervisor, bot: BotConfig): () => readonly CommandAccount[] {
  return () => {
    const { accounts, connected, selfId } = supervisor.status;
    const seen = accounts ?? [{ selfId: selfId ?? 'bot', connected }];
    return seen.map((account) => ({ selfId: account.selfId, connected: account.connected, nickname: personaFor(bot, account.selfId === 'bot' ? null : account.selfId).nickname }));
  };
}
