import { injectable } from 'inversify';
import { ComponentDeclarationError } from '../errors/component-declaration-error.js';
import { signaturePartProblem } from '../signature/signature-part.js';
import {
  type ChatType,
  type ComponentMetadata,
  readComponentMetadata,
  writeComponentMetadata,
} from './component-metadata.js';
import type * as z from 'zod';
import { isZodSchema, type ParametersSchema, parametersSchemaProblem } from './parameters-schema.js';
import { COMMAND_PERMISSIONS, type CommandArgsShape, type CommandDeclaration, type CommandInput, type CommandOptionsShape } from './command-metadata.js';
import { COMPONENT_LIFETIMES, type ComponentLifetime } from './component-lifetime.js';

type ClassDecorator = <T extends abstract new (...args: never[]) => unknown>(target: T) => T;
type Named = { name?: string };

function className(target: { name?: string }): string {
  return target.name || '(anonymous class)';
}

function checkName(target: { name?: string }, name: unknown): string {
  const problem = signaturePartProblem(name);
  if (problem !== undefined) throw new ComponentDeclarationError(className(target), 'name', problem);
  return name as string;
}

function checkText(target: { name?: string }, field: string, value: unknown, required: boolean): string {
  if (value === undefined && !required) return '';
  if (typeof value !== 'string' || (required && value.trim() === '')) {
    throw new ComponentDeclarationError(className(target), field, 'must be a non-empty string');
  }
  return value;
}

/** The declared lifetime, checked; omitted stays omitted (transient). */
function checkLifetime(target: { name?: string }, value: unknown): { lifetime?: ComponentLifetime } {
  if (value === undefined) return {};
  if (!COMPONENT_LIFETIMES.includes(value as ComponentLifetime)) {
    throw new ComponentDeclarationError(className(target), 'lifetime', `must be "transient" or "singleton", got ${JSON.stringify(value)}`);
  }
  return { lifetime: value as ComponentLifetime };
}

/** What the service, action and chatter decorators accept besides their own fields. */
export interface LifetimeOption {
  /**
   * `transient` (default): a new instance per `getService` and per injection. `singleton`:
   * one instance per plugin load, shared, and disposed with the plugin (its `dispose()` or
   * `[Symbol.dispose]()` is called when the plugin unloads or reloads).
   */
  lifetime?: ComponentLifetime;
}

function mark(metadata: (target: { name?: string }) => ComponentMetadata): ClassDecorator {
  return (target) => {
    const existing = readComponentMetadata(target);
    const next = metadata(target as Named);
    if (existing !== undefined) {
      throw new ComponentDeclarationError(
        className(target as Named),
        'decorator',
        `is already declared as ${existing.kind} "${existing.name}"; a class is one component`,
      );
    }
    writeComponentMetadata(target, next);
    // The container builds components; constructor parameters use explicit @inject tokens.
    injectable()(target as never);
    return target;
  };
}

/** What `@service(name, {...})` takes besides the name; every field optional. */
export interface ServiceOptions extends LifetimeOption {
  /** What the service offers, for listings. Default `''`. */
  description?: string;
}

/**
 * Marks a class as the service `<plugin>:service:<name>`. `getService` builds a new one per
 * call, unless it is declared `{ lifetime: 'singleton' }`.
 */
export function service(name: string, options: ServiceOptions = {}): ClassDecorator {
  return mark((target) => ({
    kind: 'service',
    name: checkName(target, name),
    description: checkText(target, 'description', options.description, false),
    ...checkLifetime(target, options.lifetime),
  }));
}

/** What `@action(name, {...})` takes besides the name. */
export interface ActionOptions extends LifetimeOption {
  /** When the model should use this action (the model reads only this sentence). */
  description: string;
  /** JSON Schema object or zod object; default: no parameters. */
  parameters?: ParametersSchema;
}

/** Marks a class as the action `<plugin>:action:<name>`, an ability the chatter offers the model. */
export function action(name: string, options: ActionOptions): ClassDecorator {
  return mark((target) => {
    const parameters = options?.parameters ?? { type: 'object', properties: {}, required: [] };
    const problem = parametersSchemaProblem(parameters);
    if (problem !== undefined) throw new ComponentDeclarationError(className(target), 'parameters', problem);
    return {
      kind: 'action',
      name: checkName(target, name),
      description: checkText(target, 'description', options?.description, true),
      parameters,
      ...checkLifetime(target, options?.lifetime),
    };
  });
}

/** What `@eventHandler({...})` takes. */
export interface EventHandlerOptions {
  /** The handler's name, the last part of `<plugin>:event_handler:<name>`. */
  name: string;
  /** Events to subscribe to. `NdfcEvent.X` and its string value are the same event. */
  subscribe: readonly string[];
  /** Higher runs first; default 0 (where defaults live, so give yours a positive weight). */
  weight?: number;
  /** Seconds; omitted/null = the bus default (30 s), `<= 0` = no timeout. */
  timeout?: number | null;
}

/** Marks a `BaseEventHandler` subclass as `<plugin>:event_handler:<name>`. */
export function eventHandler(options: EventHandlerOptions): ClassDecorator {
  return mark((target) => {
    const name = checkName(target, options?.name);
    const subscribe = options.subscribe;
    if (!Array.isArray(subscribe) || subscribe.length === 0) {
      throw new ComponentDeclarationError(className(target), 'subscribe', 'must list at least one event name');
    }
    const badEvent = subscribe.find((event) => typeof event !== 'string' || event.length === 0);
    if (badEvent !== undefined) {
      throw new ComponentDeclarationError(className(target), 'subscribe', `holds ${JSON.stringify(badEvent)}, not a non-empty event name`);
    }
    const weight = options.weight ?? 0;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) {
      throw new ComponentDeclarationError(className(target), 'weight', `must be a finite number, got ${String(weight)}`);
    }
    const timeout = options.timeout;
    if (timeout !== undefined && timeout !== null && (typeof timeout !== 'number' || Number.isNaN(timeout))) {
      throw new ComponentDeclarationError(className(target), 'timeout', `must be a number of seconds or null, got ${String(timeout)}`);
    }
    return { kind: 'event_handler', name, weight, subscribe: [...new Set(subscribe)], timeout };
  });
}

/** What `@chatter(name, {...})` takes besides the name; every field optional. */
export interface ChatterOptions extends LifetimeOption {
  /** What the chatter does, for listings. Default `''`. */
  description?: string;
  /** Chat types served; default both. */
  chatTypes?: readonly ChatType[];
  /** Platforms served; default all. */
  platforms?: readonly string[];
}

/** Marks a `BaseChatter` subclass as `<plugin>:chatter:<name>`. */
export function chatter(name: string, options: ChatterOptions = {}): ClassDecorator {
  return mark((target) => {
    const chatTypes = options.chatTypes ?? [];
    const badType = chatTypes.find((type) => type !== 'private' && type !== 'group');
    if (badType !== undefined) {
      throw new ComponentDeclarationError(className(target), 'chatTypes', `holds "${String(badType)}"; use "private" or "group"`);
    }
    return {
      kind: 'chatter',
      name: checkName(target, name),
      description: checkText(target, 'description', options.description, false),
      chatTypes: [...chatTypes],
      platforms: [...(options.platforms ?? [])],
      ...checkLifetime(target, options.lifetime),
    };
  });
}

function checkSchemas(target: { name?: string }, field: string, shape: unknown): Record<string, z.ZodType> {
  if (shape === undefined) return {};
  if (typeof shape !== 'object' || shape === null || Array.isArray(shape)) {
    throw new ComponentDeclarationError(className(target), field, 'must be an object of zod schemas, e.g. { count: z.coerce.number() }');
  }
  for (const [key, schema] of Object.entries(shape)) {
    if (!isZodSchema(schema)) throw new ComponentDeclarationError(className(target), `${field}.${key}`, 'must be a zod schema');
    if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new ComponentDeclarationError(className(target), `${field}.${key}`, 'must be a name of letters, digits, "_" and "-"');
  }
  return { ...(shape as Record<string, z.ZodType>) };
}

/**
 * Marks a `BaseCommand` subclass as the command `<plugin>:command:<name>`, run when a
 * message starts with a command prefix and this name or an alias. Declare the arguments
 * with `defineCommand` to type `execute`'s input (`CommandInput<typeof declaration>`).
 */
export function command<Args extends CommandArgsShape, Options extends CommandOptionsShape>(
  name: string,
  declaration: CommandDeclaration<Args, Options>,
): <
  T extends abstract new (
    ...args: never[]
  ) => {
    /** The command's body: it gets the parsed `args` and `options` of this declaration. */
    execute(input: CommandInput<CommandDeclaration<Args, Options>>, context: never): unknown;
  },
>(
  target: T,
) => T {
  return mark((target) => {
    const aliases = declaration?.aliases ?? [];
    if (!Array.isArray(aliases) || aliases.some((alias) => typeof alias !== 'string' || alias === '' || /\s/.test(alias))) {
      throw new ComponentDeclarationError(className(target), 'aliases', 'must be a list of names without spaces');
    }
    const args = checkSchemas(target, 'args', declaration?.args);
    const options = checkSchemas(target, 'options', declaration?.options);
    const rest = declaration?.rest ?? false;
    if (rest && Object.keys(args).length === 0) throw new ComponentDeclarationError(className(target), 'rest', 'needs at least one argument to take the rest of the line');
    const short: Record<string, string> = { ...(declaration?.short ?? {}) };
    for (const [letter, option] of Object.entries(short)) {
      if (!/^[A-Za-z]$/.test(letter)) throw new ComponentDeclarationError(className(target), `short.${letter}`, 'must be one letter');
      if (!Object.hasOwn(options, option)) throw new ComponentDeclarationError(className(target), `short.${letter}`, `names "${option}", which is not among the options`);
    }
    const permission = declaration?.permission ?? 'member';
    if (!COMMAND_PERMISSIONS.includes(permission)) {
      throw new ComponentDeclarationError(className(target), 'permission', `must be "owner", "admin" or "member", got ${JSON.stringify(permission)}`);
    }
    return {
      kind: 'command',
      name: checkName(target, name),
      description: checkText(target, 'description', declaration?.description, true),
      aliases: [...aliases],
      args,
      rest,
      options,
      short,
      permission,
      passThrough: declaration?.passThrough === true,
    };
  }) as never;
}
