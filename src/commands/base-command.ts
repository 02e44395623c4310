import type { CommandContext, CommandResult } from './command-context.js';

/**
 * A command: decorate the subclass with `@command(name, declaration)` and list it in the
 * plugin's `components()`. A new instance runs each time (constructor `@inject`s work).
 * Return text to reply with it, or call `context.reply` yourself.
 */
export abstract class BaseCommand<
  Input = {
    /** The positional arguments by declared name, each through its schema. */
    args: Record<string, unknown>;
    /** The `--options` by declared name, each through its schema. */
    options: Record<string, unknown>;
  },
> {
  /**
   * Runs the command once the sender's level allows it and no `before_command` handler
   * vetoed it. A throw (or rejection) is caught: the sender is told it failed, with the
   * error's message, and `after_command` reports `failed`.
   */
  abstract execute(input: Input, context: CommandContext): CommandResult | Promise<CommandResult>;
}
