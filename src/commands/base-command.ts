import type { CommandContext, CommandResult } from './command-context.js';

/**
 * A command: decorate the subclass with `@command(name, declaration)` and list it in the
 * plugin's `components()`. A new instance runs each time (constructor `@inject`s work).
 * Return text to reply with it, or call `context.reply` yourself.
 */
export abstract class BaseCommand<Input = { args: Record<string, unknown>; options: Record<string, unknown> }> {
  abstract execute(input: Input, context: CommandContext): CommandResult | Promise<CommandResult>;
}
