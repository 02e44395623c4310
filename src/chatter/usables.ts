import { copyPlainData } from '../kernel/copy-plain-data.js';
import type { StreamApi } from '../chat/stream-api.js';
import type { ActionMetadata } from '../kernel/components/component-metadata.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { ComponentRegistry } from '../kernel/registry/component-registry.js';
import type { ToolDeclaration } from '../llm/tool-declaration.js';
import { compileToolArguments, modelParametersSchema, validateToolArguments } from '../tools/tool-arguments.js';
import { ToolExecutionResult } from '../tools/tool-execution-result.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { BaseAction } from './base-action.js';
import { compareCodeUnits } from '../kernel/code-unit-order.js';

/** One thing the model may call in a turn: a plugin tool or an action component. */
export interface Usable {
  /** `<plugin>:tool:<name>` or `<plugin>:action:<name>`. */
  signature: string;
  /** Whether it is a plugin tool or an action component. */
  kind: 'tool' | 'action';
  /** The name the model calls it by; unique within a {@link UsableSet}. */
  name: string;
  /** What the model is shown: name, description and JSON Schema parameters. */
  declaration: ToolDeclaration;
  /**
   * Runs one call with the model's arguments: validates them, runs the tool or action, and
   * resolves to its result; bad arguments or a throw give a failed result.
   */
  run(args: Record<string, unknown>, call: UsableCall): Promise<ToolExecutionResult>;
}

/** The call a usable runs for. */
export interface UsableCall {
  /** The stream the call was made in. */
  streamId: string;
  /** The model's id for the call. */
  callId: string;
  /** Aborts when the run is abandoned or the turn is interrupted. */
  signal: AbortSignal;
  /** The capabilities the stream has (`ChatRuntime.capabilitiesFor`), passed on to tools. */
  capabilities: ReadonlySet<string>;
}

interface CompiledParameters {
  validator: ReturnType<typeof compileToolArguments>;
  schema: ReturnType<typeof modelParametersSchema>;
}

// An action's parameters never change: compile them once, not on every turn (it showed in profiles).
const compiled = new WeakMap<object, CompiledParameters>();

function compileParameters(parameters: ActionMetadata['parameters']): CompiledParameters {
  let entry = compiled.get(parameters);
  if (entry === undefined) {
    entry = { validator: compileToolArguments(parameters), schema: modelParametersSchema(parameters) };
    compiled.set(parameters, entry);
  }
  return entry;
}

/** The usables of one request, by name; built per turn (capabilities differ per stream). */
export class UsableSet {
  readonly #byName = new Map<string, Usable>();

  /** Adds a usable, replacing one of the same name. */
  add(usable: Usable): void {
    this.#byName.set(usable.name, usable);
  }

  /** The usable the model calls `name`, or undefined. */
  get(name: string): Usable | undefined {
    return this.#byName.get(name);
  }

  /** Every name in the set, in the order added. */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** Declarations for the model: actions first, then tools, each sorted by name. */
  declarations(): ToolDeclaration[] {
    const all = [...this.#byName.values()];
    const sorted = (kind: Usable['kind']) => all.filter((usable) => usable.kind === kind).sort((a, b) => compareCodeUnits(a.name, b.name));
    return [...sorted('action'), ...sorted('tool')].map((usable) => usable.declaration);
  }
}

export interface CollectUsablesOptions {
  registry: ComponentRegistry;
  tools: ToolRegistry;
  streams: StreamApi;
  capabilities: ReadonlySet<string>;
  /** Leaves out what it is true for (a chat rule's `tools_off` / `plugins_off`); a model call by that name then finds nothing. */
  isOff?: (usable: Pick<Usable, 'kind' | 'name' | 'signature'>) => boolean;
}

/**
 * Every action component and every tool offered in a stream with `capabilities`. Tools keep
 * their registry's rules (side-effect tiers, capabilities, argument checks, timeouts, caps);
 * actions have their arguments checked against their declared parameters.
 */
export function collectUsables(options: CollectUsablesOptions): UsableSet {
  const set = new UsableSet();
  for (const record of options.registry.list({ kind: 'action' })) {
    const metadata = record.metadata as ActionMetadata;
    if (options.isOff?.({ kind: 'action', name: metadata.name, signature: record.signature }) === true) continue;
    const { validator, schema } = compileParameters(metadata.parameters);
    set.add({
      signature: record.signature,
      kind: 'action',
      name: metadata.name,
      declaration: {
        type: 'function',
        function: { name: metadata.name, description: metadata.description, parameters: copyPlainData(schema) },
      },
      async run(args, call) {
        const validation = validateToolArguments(validator, args);
        if (!validation.ok) return ToolExecutionResult.fail(metadata.name, validation.reason);
        const action = options.registry.get<BaseAction>(record.signature);
        if (action === undefined) return ToolExecutionResult.fail(metadata.name, `动作 ${metadata.name} 已不可用`);
        try {
          return await action.execute(validation.value, { streamId: call.streamId, callId: call.callId, signal: call.signal, streams: options.streams });
        } catch (error) {
          return ToolExecutionResult.fail(metadata.name, `执行出错：${describeError(error)}`);
        }
      },
    });
  }
  for (const declaration of options.tools.declarations({ capabilities: options.capabilities })) {
    const name = declaration.function.name;
    const owner = options.tools.get(name)?.owner ?? 'unknown';
    const signature = `${owner}:tool:${name}`;
    if (options.isOff?.({ kind: 'tool', name, signature }) === true) continue;
    set.add({
      signature,
      kind: 'tool',
      name,
      declaration: declaration as ToolDeclaration,
      run: (args, call) =>
        options.tools.execute({ toolName: name, callId: call.callId, arguments: args }, { streamId: call.streamId, signal: call.signal, capabilities: call.capabilities }),
    });
  }
  return set;
}
