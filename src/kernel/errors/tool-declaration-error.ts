import { MoonglassError } from './moonglass-error.js';

/** A @tool declaration that cannot be accepted; raised when the plugin module is imported. */
export class ToolDeclarationError extends MoonglassError {
  readonly className: string;
  readonly toolName: string;
  readonly field: string;
  readonly reason: string;

  constructor(className: string, toolName: string, field: string, reason: string) {
    super('MG_TOOL_DECLARATION', `tool "${toolName}" on ${className}: ${field} ${reason}`);
    this.className = className;
    this.toolName = toolName;
    this.field = field;
    this.reason = reason;
  }
}
