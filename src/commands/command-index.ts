import type { CommandMetadata } from '../kernel/components/command-metadata.js';
import type { ComponentRegistry } from '../kernel/registry/component-registry.js';

/** A registered command with its recorded declaration. */
export interface RegisteredCommand {
  readonly signature: string;
  readonly pluginId: string;
  readonly metadata: CommandMetadata;
}

/** The registered commands, in registration order. */
export function registeredCommands(registry: ComponentRegistry): RegisteredCommand[] {
  return registry.list({ kind: 'command' }).flatMap((record) =>
    record.metadata.kind === 'command' ? [{ signature: record.signature, pluginId: record.pluginId, metadata: record.metadata }] : [],
  );
}

/**
 * The command a typed name means: its name first, then an alias, case-insensitively; the
 * first registered wins when two plugins claim the same word.
 */
export function findCommand(commands: readonly RegisteredCommand[], typed: string): RegisteredCommand | undefined {
  const word = typed.toLowerCase();
  return (
    commands.find((command) => command.metadata.name.toLowerCase() === word) ??
    commands.find((command) => command.metadata.aliases.some((alias) => alias.toLowerCase() === word))
  );
}

/**
 * The commands that also answer to `typed` but lose to `winner` (registered later by another
 * plugin, under the same name or alias): they can never be run by that word.
 */
export function shadowedBy(commands: readonly RegisteredCommand[], typed: string, winner: RegisteredCommand): RegisteredCommand[] {
  const word = typed.toLowerCase();
  return commands.filter(
    (command) =>
      command !== winner &&
      command.pluginId !== winner.pluginId &&
      (command.metadata.name.toLowerCase() === word || command.metadata.aliases.some((alias) => alias.toLowerCase() === word)),
  );
}
