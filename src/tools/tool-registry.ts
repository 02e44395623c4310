import { copyPlainData } from '../kernel/copy-plain-data.js';
import { DEFAULT_OBSERVATION_MAX_CHARS } from '../kernel/config/app-config.js';
import type { JsonObjectSchema } from '../kernel/components/parameters-schema.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { InvalidArgumentError } from '../kernel/errors/invalid-argument-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import { type Disposer, once } from '../kernel/scope/disposer.js';
import type { Clock } from '../kernel/time/clock.js';
import { capObservation, MIN_OBSERVATION_MAX_CHARS } from './cap-observation.js';
import { ToolRegistrationError } from './errors/tool-registration-error.js';
import type { RegisteredTool } from './registered-tool.js';
import { runToolCall } from './run-tool-call.js';
import { SIDE_EFFECTS, SideEffect } from './side-effect.js';
import { compileToolArguments, modelParametersSchema, type ToolArgumentsValidator, validateToolArguments } from './tool-arguments.js';
import type { ToolContext } from './tool-context.js';
import type { ToolDefinition } from './tool-definition.js';
import { ToolExecutionResult } from './tool-execution-result.js';
import { ToolFailureKind } from './tool-failure-kind.js';
import type { ToolFunctionDeclaration } from './tool-function-declaration.js';
import type { ToolInvocation } from './tool-invocation.js';
import { compareCodeUnits } from '../kernel/code-unit-order.js';

export { DEFAULT_OBSERVATION_MAX_CHARS };

export interface ToolRegistryOptions {
  clock: Clock;
  logger: Logger;
  /**
   * Characters (code points) an observation or error message may carry back to the model;
   * longer ones are clipped with 「…（已截断）」. Default 4000, at least 32.
   */
  observationMaxChars?: number;
  /** Whether a `reversible` tool is offered; asked on every declaration and call. Default: none is. */
  isReversibleEnabled?: (toolName: string) => boolean;
}

interface ToolEntry extends RegisteredTool {
  validator: ToolArgumentsValidator;
  parameters: JsonObjectSchema;
}

function byName(a: { definition: ToolDefinition }, b: { definition: ToolDefinition }): number {
  return compareCodeUnits(a.definition.name, b.definition.name);
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message.trim() !== '' ? error.message : describeError(error);
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return '数组';
  if (typeof value === 'object') return `${(value as object).constructor?.name ?? 'Object'} 对象`;
  return typeof value;
}

/**
 * Every tool the host offers to the model. Registration checks a tool once (side effect,
 * unique name, compilable schema) and hands back a disposer; `declarations` says what a
 * stream may call; `execute` runs a call and turns every problem into a failure result the
 * model reads, logged at warn with the tool and its owner. Fail fast at registration, fail
 * open at run time.
 */
export class ToolRegistry {
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #observationMaxChars: number;
  readonly #isReversibleEnabled: (toolName: string) => boolean;
  readonly #entries = new Map<string, ToolEntry>();

  constructor(options: ToolRegistryOptions) {
    const observationMaxChars = options.observationMaxChars ?? DEFAULT_OBSERVATION_MAX_CHARS;
    if (!Number.isInteger(observationMaxChars) || observationMaxChars < MIN_OBSERVATION_MAX_CHARS) {
      throw new InvalidArgumentError('new ToolRegistry', 'observationMaxChars', observationMaxChars, `an integer >= ${MIN_OBSERVATION_MAX_CHARS}`);
    }
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#observationMaxChars = observationMaxChars;
    this.#isReversibleEnabled = options.isReversibleEnabled ?? (() => false);
  }

  /**
   * Registers `definition` for the plugin `owner`. Throws `ToolRegistrationError` for an
   * irreversible tool (「工具 X 具有不可逆副作用，不允许注册」), a name already registered (naming
   * both owners), or a parameters schema that cannot be compiled. The disposer removes the
   * tool; calling it again does nothing.
   */
  register(owner: string, definition: ToolDefinition): Disposer {
    const name = definition?.name;
    const refuse = (reason: string, options: { cause?: unknown; existingOwner?: string } = {}): never => {
      throw new ToolRegistrationError(typeof name === 'string' ? name : String(name), String(owner), reason, options);
    };
    if (typeof name !== 'string' || name.trim() === '') refuse('的名称必须是非空字符串');
    if (typeof owner !== 'string' || owner.trim() === '') refuse('的注册者（插件 id）必须是非空字符串');
    if (definition.sideEffect === SideEffect.IRREVERSIBLE) refuse('具有不可逆副作用，不允许注册');
    if (!SIDE_EFFECTS.includes(definition.sideEffect)) refuse(`的 sideEffect 必须是 ${SIDE_EFFECTS.join('、')} 之一，收到 ${String(definition.sideEffect)}`);
    if (typeof definition.execute !== 'function') refuse('缺少 execute 执行体');
    if (typeof definition.timeoutMs !== 'number' || !Number.isFinite(definition.timeoutMs) || definition.timeoutMs <= 0) {
      refuse(`的 timeoutMs 必须是正数，收到 ${String(definition.timeoutMs)}`);
    }
    const capabilities: unknown = definition.capabilities;
    if (!Array.isArray(capabilities) || capabilities.some((capability) => typeof capability !== 'string' || capability === '')) {
      refuse('的 capabilities 必须是非空字符串的列表');
    }
    const existing = this.#entries.get(name);
    if (existing !== undefined) {
      refuse(`已由插件 ${existing.owner} 注册，插件 ${owner} 不能再注册同名工具`, { existingOwner: existing.owner });
    }
    let validator: ToolArgumentsValidator;
    let parameters: JsonObjectSchema;
    try {
      validator = compileToolArguments(definition.parameters);
      parameters = modelParametersSchema(definition.parameters);
    } catch (error) {
      return refuse(`的参数 schema 无法编译：${errorText(error)}`, { cause: error });
    }
    const entry: ToolEntry = { owner, definition, validator, parameters };
    this.#entries.set(name, entry);
    return once(() => {
      if (this.#entries.get(name) === entry) this.#entries.delete(name);
    });
  }

  /** Every registered tool with its owner, sorted by name. */
  list(): RegisteredTool[] {
    return [...this.#entries.values()].sort(byName).map(({ owner, definition }) => ({ owner, definition }));
  }

  /** The tool registered under `name`, if any. */
  get(name: string): RegisteredTool | undefined {
    const entry = this.#entries.get(name);
    return entry === undefined ? undefined : { owner: entry.owner, definition: entry.definition };
  }

  /**
   * The OpenAI function declarations of the tools offered in a stream with `capabilities`,
   * sorted by name: readonly tools, reversible ones when enabled, and only those whose
   * capabilities the stream has all of.
   */
  declarations({ capabilities }: { capabilities: ReadonlySet<string> }): ToolFunctionDeclaration[] {
    return [...this.#entries.values()]
      .filter((entry) => this.#offered(entry, capabilities))
      .sort(byName)
      .map(({ definition, parameters }) => ({
        type: 'function',
        function: { name: definition.name, description: definition.description, parameters: copyPlainData(parameters) },
      }));
  }

  /** Whether `name` is offered in a stream with `capabilities` (the rule of `declarations`). */
  isOffered(name: string, capabilities: ReadonlySet<string>): boolean {
    const entry = this.#entries.get(name);
    return entry !== undefined && this.#offered(entry, capabilities);
  }

  /**
   * Runs one call. Never throws for a tool problem: an unknown or unoffered tool, arguments
   * that fail the schema (the tool is not called), a throw, a value that is not a
   * `ToolExecutionResult`, a result under another name, a timeout on the injected clock
   * (「执行超过 N 毫秒」, the tool's signal aborts, a later result is ignored) and a cancelled
   * call (the caller's signal aborted) all come back as failures, with
   * `metadata.failureKind` saying which. The tool receives the validated arguments.
   * Observations and error messages are capped to `observationMaxChars`.
   */
  async execute(invocation: ToolInvocation, context: ToolContext): Promise<ToolExecutionResult> {
    const toolName = invocation.toolName;
    const entry = this.#entries.get(toolName);
    if (entry === undefined) return this.#fail(invocation, context, undefined, ToolFailureKind.UNKNOWN_TOOL, `未注册的工具 ${String(toolName)}`);
    if (!this.#offered(entry, context.capabilities)) {
      return this.#fail(invocation, context, entry, ToolFailureKind.NOT_OFFERED, `工具 ${toolName} 在当前会话中不可用`);
    }
    const validation = validateToolArguments(entry.validator, invocation.arguments);
    if (!validation.ok) return this.#fail(invocation, context, entry, ToolFailureKind.INVALID_ARGUMENTS, validation.reason);

    const outcome = await runToolCall(this.#clock, entry.definition, { ...invocation, arguments: validation.value }, context);
    switch (outcome.type) {
      case 'timed_out':
        return this.#fail(invocation, context, entry, ToolFailureKind.TIMED_OUT, `执行超过 ${entry.definition.timeoutMs} 毫秒`);
      case 'cancelled':
        return this.#fail(invocation, context, entry, ToolFailureKind.CANCELLED, '调用已取消');
      case 'threw':
        return this.#fail(invocation, context, entry, ToolFailureKind.THREW, `执行出错：${errorText(outcome.error)}`, outcome.error);
      case 'returned':
        return this.#accept(invocation, context, entry, outcome.value);
      default: {
        const unhandled: never = outcome;
        throw new Error(`unhandled tool call outcome ${JSON.stringify(unhandled)}`);
      }
    }
  }

  #offered(entry: ToolEntry, capabilities: ReadonlySet<string>): boolean {
    const { definition } = entry;
    if (!definition.capabilities.every((capability) => capabilities.has(capability))) return false;
    if (definition.sideEffect === SideEffect.READONLY) return true;
    if (definition.sideEffect !== SideEffect.REVERSIBLE) return false;
    try {
      return this.#isReversibleEnabled(definition.name) === true;
    } catch (error) {
      this.#logger.warn({ tool: definition.name, owner: entry.owner, err: describeError(error) }, `isReversibleEnabled threw for tool ${definition.name}; not offered`);
      return false;
    }
  }

  #accept(invocation: ToolInvocation, context: ToolContext, entry: ToolEntry, value: unknown): ToolExecutionResult {
    const toolName = invocation.toolName;
    if (!ToolExecutionResult.isInstance(value)) {
      return this.#fail(invocation, context, entry, ToolFailureKind.INVALID_RESULT, `工具 ${toolName} 返回的不是 ToolExecutionResult，而是 ${describeValue(value)}`);
    }
    if (value.toolName !== toolName) {
      return this.#fail(invocation, context, entry, ToolFailureKind.NAME_MISMATCH, `工具执行结果名称不一致：调用的是 ${toolName}，结果来自 ${String(value.toolName)}`);
    }
    const result = new ToolExecutionResult({
      toolName,
      success: value.success,
      observation: capObservation(String(value.observation), this.#observationMaxChars),
      errorMessage: capObservation(String(value.errorMessage), this.#observationMaxChars),
      metadata: { ...value.metadata },
    });
    if (!result.success) this.#warn(invocation, context, entry, ToolFailureKind.REPORTED, result.errorMessage);
    return result;
  }

  #fail(invocation: ToolInvocation, context: ToolContext, entry: ToolEntry | undefined, failureKind: ToolFailureKind, message: string, cause?: unknown): ToolExecutionResult {
    const errorMessage = capObservation(message, this.#observationMaxChars);
    this.#warn(invocation, context, entry, failureKind, errorMessage, cause);
    return ToolExecutionResult.fail(String(invocation.toolName), errorMessage, { failureKind });
  }

  #warn(invocation: ToolInvocation, context: ToolContext, entry: ToolEntry | undefined, failureKind: ToolFailureKind, errorMessage: string, cause?: unknown): void {
    this.#logger.warn(
      {
        tool: invocation.toolName,
        owner: entry?.owner,
        callId: invocation.callId,
        streamId: context.streamId,
        failureKind,
        ...(cause === undefined ? {} : { err: describeError(cause) }),
      },
      `tool ${String(invocation.toolName)} failed (${failureKind}): ${errorMessage}`,
    );
  }
}
