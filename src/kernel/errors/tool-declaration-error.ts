import { MoonglassError } from './moonglass-error.js';

/** A `@tool` declaration that cannot be accepted; raised when the plugin module is imported. */
export class ToolDeclarationError extends MoonglassError {
  /** The plugin class that declares the tool. */
  readonly className: string;
  /** The tool's name as declared (or the method's name when the name is the problem). */
  readonly toolName: string;
  /** The declaration field that was refused (`name`, `description`, `parameters` …). */
  readonly field: string;
  /** What is wrong with it, completing the sentence after `field`. */
  readonly reason: string;

  constructor(className: string, toolName: string, field: string, reason: string) {
    super('MG_TOOL_DECLARATION', `tool "${toolName}" on ${className}: ${field} ${reason}`);
    this.className = className;
    this.toolName = toolName;
    this.field = field;
    this.reason = reason;
  }
}
