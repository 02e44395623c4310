import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';

/** The chatter signatures (`<plugin>:chatter:<name>`) a loaded plugin registered. */
export function chattersOf(status: PluginStatus): string[] {
  if (status.state !== 'loaded') return [];
  return status.signatures.filter((signature) => signature.split(':')[1] === 'chatter');
}

/** Every chatter that can answer messages now: those of the loaded plugins. */
export function runningChatters(statuses: readonly PluginStatus[]): string[] {
  return statuses.flatMap(chattersOf);
}

/**
 * The question to ask before switching off `pluginId`, when it registers a chatter (the
 * component that answers messages); undefined when switching it off silences nobody.
 */
export function disableQuestion(statuses: readonly PluginStatus[], pluginId: string): string | undefined {
  const status = statuses.find((entry) => entry.id === pluginId);
  const own = status === undefined ? [] : chattersOf(status);
  if (own.length === 0) return undefined;
  const others = runningChatters(statuses).filter((signature) => !own.includes(signature));
  const after =
    others.length === 0
      ? 'No chatter will run: messages are stored but nobody answers them until a chatter is enabled again (then the ones that arrived meanwhile are answered).'
      : `Messages will be answered by ${others.join(', ')} instead.`;
  return `${pluginId} answers messages (${own.join(', ')}). ${after} Disable it?`;
}
