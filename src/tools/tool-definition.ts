import type { ToolContext } from './tool-context.js';
import { readToolDeclarations, type ToolDeclaration } from './tool-decorator.js';
import type { ToolExecutionResult } from './tool-execution-result.js';
import type { ToolInvocation } from './tool-invocation.js';

/**
 * A tool as the registry takes it: its declaration and a body. Plain data plus a closure,
 * so a plugin can adjust one with a spread (`{ ...definition, timeoutMs: 30_000 }`).
 */
export interface ToolDefinition extends Omit<ToolDeclaration, 'methodName'> {
  /** Runs the call with validated arguments. Throws and bad values become failure results. */
  execute(invocation: ToolInvocation, context: ToolContext): Promise<ToolExecutionResult>;
}

type ToolMethod = (invocation: ToolInvocation, context: ToolContext) => Promise<ToolExecutionResult>;

/**
 * The `@tool` methods of `instance`'s class (and its base classes) as definitions, sorted by
 * name; each `execute` calls the method on `instance` with `(invocation, context)`.
 */
export function toolDefinitionsFromDecorators(instance: object): ToolDefinition[] {
  const pluginClass = instance.constructor as abstract new (...args: never[]) => unknown;
  return readToolDeclarations(pluginClass).map((declaration): ToolDefinition => {
    const { methodName } = declaration;
    return {
      name: declaration.name,
      description: declaration.description,
      parameters: declaration.parameters,
      sideEffect: declaration.sideEffect,
      capabilities: [...declaration.capabilities],
      timeoutMs: declaration.timeoutMs,
      execute(invocation, context) {
        // Looked up per call, so an override of the method in a subclass is the one that runs.
        const method: unknown = Reflect.get(instance, methodName);
        if (typeof method !== 'function') {
          return Promise.reject(new TypeError(`${pluginClass.name}.${String(methodName)} is no longer a method`));
        }
        return (method as ToolMethod).call(instance, invocation, context);
      },
    };
  });
}
