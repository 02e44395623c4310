import * as z from 'zod';
import { isZodSchema, type JsonObjectSchema, type ParametersSchema, parametersSchemaProblem } from '../kernel/components/parameters-schema.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { describeArgumentIssues } from './describe-argument-issues.js';

/** A compiled parameters schema: parses the model's arguments, applying defaults. */
export type ToolArgumentsValidator = z.ZodType;

/** The outcome of checking one call's arguments. */
export type ToolArgumentsValidation =
  | { ok: true; /** The parsed arguments, defaults applied. */ value: Record<string, unknown> }
  | { ok: false; /** Every problem, each naming its field: `参数 name：…`. */ reason: string };

/** What the model sees for a tool without parameters; also what such a tool accepts. */
const EMPTY_PARAMETERS: JsonObjectSchema = { type: 'object', properties: {}, additionalProperties: false };

/** The integer bounds zod writes for `z.int()`; they say nothing to a model. */
const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/** Keywords whose values are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples']);

function stripSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntegerBounds);
  if (typeof node !== 'object' || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (SAFE_INTEGER_BOUNDS[key] !== undefined && value === SAFE_INTEGER_BOUNDS[key]) continue;
    result[key] = DATA_KEYWORDS.has(key) ? value : stripSafeIntegerBounds(value);
  }
  return result;
}

/** Keywords an object schema may carry and still declare no parameters at all. */
const EMPTY_SCHEMA_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'title', 'description']);

function hasNoParameters(schema: JsonObjectSchema): boolean {
  const properties = schema.properties ?? {};
  const extra = schema.additionalProperties;
  return (
    Object.keys(schema).every((keyword) => EMPTY_SCHEMA_KEYWORDS.has(keyword)) &&
    Object.keys(properties).length === 0 &&
    (extra === undefined || extra === false)
  );
}

/**
 * A zod object that says nothing about unknown keys (`z.object`, which strips them) refuses
 * them, as a JSON Schema with `additionalProperties: false` does: a model that sends a key
 * the tool does not have hears so instead of the key vanishing. `z.looseObject` and
 * `z.strictObject` keep what they say.
 */
function refusingUnknownKeys(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: { type: string; catchall?: unknown } } })._zod.def;
  return def.type === 'object' && def.catchall === undefined ? (schema as z.ZodObject).strict() : schema;
}

/** Keeps the strict copy of each zod schema, so it is made once per schema. */
const strictCopies = new WeakMap<z.ZodType, z.ZodType>();

function strictCopyOf(schema: z.ZodType): z.ZodType {
  let copy = strictCopies.get(schema);
  if (copy === undefined) strictCopies.set(schema, (copy = refusingUnknownKeys(schema)));
  return copy;
}

/**
 * The JSON Schema the model sees for `parameters`: a JSON Schema object as written (a
 * copy); a zod object as its draft-7 input schema, without `$schema` and without the
 * ±9007199254740991 bounds zod adds to integers. No parameters at all become
 * `{ type: 'object', properties: {}, additionalProperties: false }`.
 * Throws when the schema cannot be expressed (a zod `z.date()`, a cyclic object ...).
 */
export function modelParametersSchema(parameters: ParametersSchema): JsonObjectSchema {
  const problem = parametersSchemaProblem(parameters);
  if (problem !== undefined) throw new TypeError(`parameters ${problem}`);
  let schema: JsonObjectSchema;
  if (isZodSchema(parameters)) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(strictCopyOf(parameters), { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
    schema = stripSafeIntegerBounds(rest) as JsonObjectSchema;
  } else {
    schema = JSON.parse(JSON.stringify(parameters)) as JsonObjectSchema;
  }
  return hasNoParameters(schema) ? structuredClone(EMPTY_PARAMETERS) : schema;
}

/**
 * Compiles `parameters` into a validator, once: a zod object is used as is (refusing
 * unknown keys unless it is a `z.looseObject`); a JSON Schema
 * object (as the model sees it, see `modelParametersSchema`) is converted with
 * `z.fromJSONSchema`. Throws when the schema cannot be compiled.
 */
export function compileToolArguments(parameters: ParametersSchema): ToolArgumentsValidator {
  if (isZodSchema(parameters)) {
    const problem = parametersSchemaProblem(parameters);
    if (problem !== undefined) throw new TypeError(`parameters ${problem}`);
    return strictCopyOf(parameters);
  }
  const schema = modelParametersSchema(parameters);
  // `definitions` is draft-7's home for `$ref` targets; 2020-12 (zod's default) uses `$defs`.
  const defaultTarget = 'definitions' in schema && !('$defs' in schema) ? 'draft-7' : 'draft-2020-12';
  // A private registry keeps the schema's annotations out of zod's global one.
  return z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema, { defaultTarget, registry: z.registry() });
}

/**
 * Checks a call's arguments against a compiled validator. Never throws: a validator that
 * fails on its own (an async refinement, a throwing transform) is reported as a reason.
 */
export function validateToolArguments(validator: ToolArgumentsValidator, args: unknown): ToolArgumentsValidation {
  const notJson = notJsonProblem(args);
  if (notJson !== undefined) return { ok: false, reason: notJson };
  let parsed: z.ZodSafeParseResult<unknown>;
  try {
    parsed = validator.safeParse(args, { reportInput: true });
  } catch (error) {
    return { ok: false, reason: `参数无法校验：${describeError(error)}` };
  }
  if (!parsed.success) return { ok: false, reason: describeArgumentIssues(parsed.error.issues) };
  const value = parsed.data;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: '参数：校验后不是对象' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** How much of unparseable arguments the model is shown again. */
const RAW_SHOWN_CHARS = 120;

/**
 * Arguments the model layer could not read as a JSON object arrive as `{ _raw: text }` (see
 * `ToolCall.args`): the reason says so, with the parser's complaint, instead of reporting
 * every required field as missing.
 */
function notJsonProblem(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const keys = Object.keys(args);
  const raw = (args as Record<string, unknown>)['_raw'];
  if (keys.length !== 1 || typeof raw !== 'string') return undefined;
  const shown = raw.length > RAW_SHOWN_CHARS ? `${raw.slice(0, RAW_SHOWN_CHARS)}…` : raw;
  let complaint: string;
  try {
    const parsed: unknown = JSON.parse(raw);
    complaint = `it is JSON, but ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`}, not an object`;
  } catch (error) {
    complaint = describeError(error);
  }
  return `参数不是合法的 JSON 对象（arguments are not valid JSON: ${complaint}）：${shown}`;
}
