import { createCommandGates } from '../commands/command-gates.js';
import type { CommandOperator } from '../commands/command-context.js';
import { savePluginEnabled } from '../plugin-system/config/save-plugin-enabled.js';
import type { Host } from './create-host.js';

/**
 * Adds the guests (100) and commands (200) inbound gates to the host's chat, with the
 * operator controls owner commands get. Returns the removal of both gates.
 */
export function wireCommands(host: Host): () => void {
  const chat = host.chat;
  const startedAt = host.clock.now();
  const operator: CommandOperator = {
    startedAt,
    models: chat.models,
    messagesToday: () => {
      const midnight = new Date(host.clock.now());
      midnight.setHours(0, 0, 0, 0);
      return chat.storage.messages.countSince(Math.floor(midnight.getTime() / 1000));
    },
    plugins: () => host.plugins.list(),
    reloadPlugin: (id) => host.plugins.reload(id),
    setPluginEnabled: async (id, enabled) => {
      const { folder, file, model } = await host.plugins.configOf(id);
      const switched = savePluginEnabled(folder, model, enabled, file);
      if (!switched.ok) throw new Error(`${file}: cannot write enabled = ${enabled}: ${switched.errors.map((error) => `${error.field} ${error.reason}`).join('; ')}`);
      return host.plugins.reload(id);
    },
  };
  const removals = createCommandGates({
    registry: host.registry,
    bus: host.bus,
    streams: chat.runtime.streams,
    bot: chat.bot,
    clock: host.clock,
    logger: host.logger,
    pluginContextOf: (pluginId) => host.plugins.get(pluginId)?.ctx,
    operator,
  }).map((gate) => chat.gates.add(gate));
  return () => {
    for (const remove of removals) remove();
  };
}
