import { ToolDeclarationError } from '../kernel/errors/tool-declaration-error.js';
import { type ParametersSchema, parametersSchemaProblem } from '../kernel/components/parameters-schema.js';
import { SIDE_EFFECTS, type SideEffect } from './side-effect.js';
import { compareCodeUnits } from '../kernel/code-unit-order.js';

const TOOL_DECLARATIONS = Symbol.for('moonglass.tools');

/** Model-facing tool names: what OpenAI-compatible APIs accept as a function name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The default time a tool call may take, in milliseconds. */
export const DEFAULT_TOOL_TIMEOUT_MS = 10_000;

/** What `@tool({...})` takes: the tool as the model sees it, and its limits. */
export interface ToolSpec {
  /** The name the model calls; letters, digits, `_` and `-`, at most 64. */
  name: string;
  /** When to use it, not what it is called: the model decides from this sentence alone. */
  description: string;
  /** JSON Schema object (or zod object) of the arguments; default: none. */
  parameters?: ParametersSchema;
  /** Default `readonly`. */
  sideEffect?: SideEffect;
  /** Stream capabilities the tool needs; it is declared only in streams that have them all. */
  capabilities?: readonly string[];
  /** Milliseconds a call may take; default 10 000. */
  timeoutMs?: number;
}

/** A tool as the decorator recorded it: the spec with defaults filled, and its method. */
export interface ToolDeclaration {
  /** The name the model calls; letters, digits, `_` and `-`, at most 64; unique in the class. */
  name: string;
  /** When to use the tool; the model decides from this sentence alone. */
  description: string;
  /** The arguments' JSON Schema object (or zod object); an empty object schema when none were declared. */
  parameters: ParametersSchema;
  /**
   * How much the tool changes the world; `readonly` when not declared. A `reversible` tool is
   * offered only when `features.toml [tools] reversible_enabled` names it; an `irreversible` one
   * is refused.
   */
  sideEffect: SideEffect;
  /** Stream capabilities the tool needs; `[]` when none. It is declared only in streams that have them all. */
  capabilities: readonly string[];
  /** Milliseconds a call may take before it fails as timed out; 10 000 when not declared. */
  timeoutMs: number;
  /** The decorated method, the tool's body. */
  methodName: string | symbol;
}

function isAsyncFunction(value: unknown): boolean {
  return typeof value === 'function' && value.constructor?.name === 'AsyncFunction';
}

function ownDeclarations(prototype: object): ToolDeclaration[] {
  if (!Object.hasOwn(prototype, TOOL_DECLARATIONS)) {
    Object.defineProperty(prototype, TOOL_DECLARATIONS, { value: [], enumerable: false });
  }
  return (prototype as Record<symbol, ToolDeclaration[]>)[TOOL_DECLARATIONS]!;
}

/**
 * Declares a tool on a plugin method: the decorator is the declaration, the method is the
 * body. Checked when the plugin module is imported: the body must be `async`, the name and
 * description valid, the parameters a JSON Schema object, the name unique in the class.
 */
export function tool(spec: ToolSpec) {
  return (prototype: object, methodName: string | symbol, descriptor: PropertyDescriptor): void => {
    const className = (prototype.constructor as { name?: string } | undefined)?.name || '(anonymous class)';
    const name = spec?.name;
    const fail = (field: string, reason: string): never => {
      throw new ToolDeclarationError(className, typeof name === 'string' ? name : String(methodName), field, reason);
    };
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) fail('name', 'must be 1-64 letters, digits, "_" or "-"');
    if (typeof spec.description !== 'string' || spec.description.trim() === '') fail('description', 'must say when to use the tool');
    if (!isAsyncFunction(descriptor.value)) fail('body', `${String(methodName)}() must be an async method`);
    const parameters = spec.parameters ?? { type: 'object', properties: {}, required: [] };
    const parametersProblem = parametersSchemaProblem(parameters);
    if (parametersProblem !== undefined) fail('parameters', parametersProblem);
    const sideEffect = spec.sideEffect ?? 'readonly';
    if (!SIDE_EFFECTS.includes(sideEffect)) fail('sideEffect', `must be one of ${SIDE_EFFECTS.join(', ')}`);
    const capabilities = spec.capabilities ?? [];
    if (!Array.isArray(capabilities) || capabilities.some((capability) => typeof capability !== 'string' || capability === '')) {
      fail('capabilities', 'must be a list of non-empty strings');
    }
    const timeoutMs = spec.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) fail('timeoutMs', 'must be a positive number');
    const declarations = ownDeclarations(prototype);
    if (declarations.some((existing) => existing.name === name)) fail('name', 'is declared twice in this class');
    declarations.push(
      Object.freeze({ name, description: spec.description, parameters, sideEffect, capabilities: [...capabilities], timeoutMs, methodName }),
    );
  };
}

/** Every tool declared on `pluginClass` and its base classes, sorted by name; a subclass wins on a name clash. */
export function readToolDeclarations(pluginClass: abstract new (...args: never[]) => unknown): ToolDeclaration[] {
  const byName = new Map<string, ToolDeclaration>();
  for (let prototype: object | null = pluginClass.prototype as object; prototype !== null && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype)) {
    if (!Object.hasOwn(prototype, TOOL_DECLARATIONS)) continue;
    for (const declaration of (prototype as Record<symbol, ToolDeclaration[]>)[TOOL_DECLARATIONS]!) {
      if (!byName.has(declaration.name)) byName.set(declaration.name, declaration);
    }
  }
  return [...byName.values()].sort((a, b) => compareCodeUnits(a.name, b.name));
}
