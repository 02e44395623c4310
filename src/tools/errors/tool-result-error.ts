import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** A `ToolExecutionResult` that cannot be built: a failure must say why it failed. */
export class ToolResultError extends MoonglassError {
  /** The tool whose result was refused. */
  readonly toolName: string;
  /** The field that must be filled: `errorMessage`. */
  readonly field: string;

  constructor(toolName: string, field = 'errorMessage') {
    super('MG_TOOL_RESULT', `工具 ${toolName} 执行失败必须给出失败原因`);
    this.toolName = toolName;
    this.field = field;
  }
}
