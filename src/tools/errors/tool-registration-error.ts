import { MoonglassError, type MoonglassErrorOptions } from '../../kernel/errors/moonglass-error.js';

/**
 * The tool registry refused a tool: an irreversible side effect, a name another owner
 * already holds, or a parameters schema that cannot be compiled. Nothing was registered.
 */
export class ToolRegistrationError extends MoonglassError {
  /** The name of the tool that was refused. */
  readonly toolName: string;
  /** Who tried to register it (a plugin id). */
  readonly owner: string;
  /** The owner that already holds the name, for a duplicate; otherwise `undefined`. */
  readonly existingOwner: string | undefined;
  /** What was wrong, completing the sentence 「工具 {toolName} …」. */
  readonly reason: string;

  constructor(toolName: string, owner: string, reason: string, options: MoonglassErrorOptions & { existingOwner?: string } = {}) {
    super('MG_TOOL_REGISTRATION', `工具 ${toolName} ${reason}`, options);
    this.toolName = toolName;
    this.owner = owner;
    this.existingOwner = options.existingOwner;
    this.reason = reason;
  }
}
