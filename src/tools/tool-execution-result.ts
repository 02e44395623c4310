import { ToolResultError } from './errors/tool-result-error.js';

const TOOL_EXECUTION_RESULT_MARKER = Symbol.for('moonglass.ToolExecutionResult');

/** What a tool call produced, as its fields. */
export interface ToolExecutionResultOptions {
  /** The tool that ran; must be the name the model called. */
  toolName: string;
  /** Whether the call succeeded; false requires a non-blank `errorMessage`. */
  success: boolean;
  /** What the model reads back on success; capped by the registry. Default `''`. */
  observation?: string;
  /** Why the call failed; required (non-blank) when `success` is false. Default `''`. */
  errorMessage?: string;
  /** Host-side facts (ids, timings, paging offsets); never shown to the model. Default `{}`. */
  metadata?: Record<string, unknown>;
}

/**
 * The outcome of one tool call. A failure without a reason is refused at construction
 * (「工具 X 执行失败必须给出失败原因」), so every failure the model sees says why.
 *
 * Use `ToolExecutionResult.isInstance(value)` rather than `instanceof`: a plugin can end up
 * with its own copy of the package.
 */
export class ToolExecutionResult {
  /** @internal Brand that `isInstance` checks, shared by every copy of the package. */
  readonly [TOOL_EXECUTION_RESULT_MARKER] = true;
  /** The tool that ran (the name the model called). */
  readonly toolName: string;
  /** Whether the call succeeded; when false, `errorMessage` says why. */
  readonly success: boolean;
  /** What the model reads back on success; `''` when none was given. */
  readonly observation: string;
  /** Why the call failed, never blank on a failure; `''` on success. */
  readonly errorMessage: string;
  /** Host-side facts (ids, timings, paging offsets), frozen; never shown to the model. */
  readonly metadata: Readonly<Record<string, unknown>>;

  constructor(options: ToolExecutionResultOptions) {
    const { toolName, success, observation = '', errorMessage = '', metadata = {} } = options;
    if (!success && (typeof errorMessage !== 'string' || errorMessage.trim() === '')) throw new ToolResultError(String(toolName));
    this.toolName = toolName;
    this.success = success;
    this.observation = observation;
    this.errorMessage = errorMessage;
    this.metadata = Object.freeze({ ...metadata });
  }

  /** A success whose `observation` goes back to the model. */
  static ok(toolName: string, observation: string, metadata?: Record<string, unknown>): ToolExecutionResult {
    return new ToolExecutionResult({ toolName, success: true, observation, ...(metadata === undefined ? {} : { metadata }) });
  }

  /** A failure; `errorMessage` must say why (blank is refused with `ToolResultError`). */
  static fail(toolName: string, errorMessage: string, metadata?: Record<string, unknown>): ToolExecutionResult {
    return new ToolExecutionResult({ toolName, success: false, errorMessage, ...(metadata === undefined ? {} : { metadata }) });
  }

  /** True for a result built by any copy of moonglass. */
  static isInstance(value: unknown): value is ToolExecutionResult {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_EXECUTION_RESULT_MARKER] === true;
  }
}
