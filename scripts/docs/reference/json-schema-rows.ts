import { stringify } from 'smol-toml';

/** The part of a JSON Schema (as zod's `toJSONSchema` writes it) that the config reference reads. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  secret?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** One key of a config file: a leaf setting, or a table heading with its own description. */
export interface ConfigRow {
  /** The dotted key, `<name>` for a table of tables, `[]` for an array of tables (`rules[].match.group`). */
  key: string;
  kind: 'table' | 'value';
  type: string;
  default?: string;
  required: boolean;
  secret: boolean;
  description: string;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Every key of an object schema, depth first, tables before their keys. */
export function configRows(schema: JsonSchema, prefix = ''): ConfigRow[] {
  const rows: ConfigRow[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    rows.push(...rowsOf(property, key, required.has(name) && property.default === undefined));
  }
  return rows;
}

function rowsOf(schema: JsonSchema, key: string, required: boolean): ConfigRow[] {
  const table = tableShape(schema);
  if (table !== undefined) {
    const head: ConfigRow = { key, kind: 'table', type: table.label, required, secret: false, description: schema.description ?? '' };
    if (schema.default !== undefined && !isEmptyValue(schema.default)) head.default = tomlValue(schema.default);
    return [head, ...configRows(table.schema, table.childPrefix(key))];
  }
  const row: ConfigRow = { key, kind: 'value', type: typeOf(schema), required, secret: schema.secret === true, description: schema.description ?? '' };
  if (schema.default !== undefined) row.default = tomlValue(schema.default);
  return [row];
}

/** A table (object with properties), a table of tables (record of objects) or an array of tables. */
function tableShape(schema: JsonSchema): { label: string; schema: JsonSchema; childPrefix: (key: string) => string } | undefined {
  if (isObjectWithProperties(schema)) return { label: 'table', schema, childPrefix: (key) => key };
  const declared = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const values = declared === undefined ? undefined : mergedAlternatives(declared);
  if (schema.type === 'object' && values !== undefined && isObjectWithProperties(values)) {
    return { label: 'table of tables', schema: values, childPrefix: (key) => `${key}.<name>` };
  }
  if (schema.type === 'array' && schema.items !== undefined && isObjectWithProperties(schema.items)) {
    return { label: 'array of tables', schema: schema.items, childPrefix: (key) => `${key}[]` };
  }
  return undefined;
}

/**
 * A union of tables (`[servers.<name>]` is a stdio or an http server) as one table with every
 * key of every alternative; a key whose alternatives are constants lists them all.
 */
function mergedAlternatives(schema: JsonSchema): JsonSchema {
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives === undefined || !alternatives.every(isObjectWithProperties)) return schema;
  const properties: Record<string, JsonSchema> = {};
  for (const alternative of alternatives) {
    for (const [key, property] of Object.entries(alternative.properties!)) {
      const seen = properties[key];
      if (seen === undefined) properties[key] = property;
      else if (seen.const !== undefined && property.const !== undefined) properties[key] = { ...seen, const: undefined, enum: [...(seen.enum ?? [seen.const]), property.const] };
      else if (seen.const !== undefined && seen.enum !== undefined && property.const !== undefined) seen.enum.push(property.const);
    }
  }
  const required = alternatives.map((alternative) => new Set(alternative.required ?? [])).reduce((all, next) => new Set([...all].filter((key) => next.has(key))));
  return { type: 'object', properties, required: [...required] };
}

function isObjectWithProperties(schema: JsonSchema): boolean {
  return schema.type === 'object' && schema.properties !== undefined && Object.keys(schema.properties).length > 0;
}

/** A short, readable type: `integer ≥ 0`, `string (uri)`, `"a" \| "b"`, `array of string`. */
export function typeOf(schema: JsonSchema, nested = false): string {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) {
    const joined = [...new Set(alternatives.map((alternative) => typeOf(alternative, true)))].join(' or ');
    return nested && alternatives.length > 1 ? `(${joined})` : joined;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum !== undefined) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
  if (type === 'array') {
    const count = bounds(schema.minItems, schema.maxItems, 'items');
    return `array of ${schema.items === undefined ? 'any' : typeOf(schema.items, true)}${count}`;
  }
  if (type === 'object') {
    const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    return values === undefined ? 'table' : `table of ${typeOf(values, true)}`;
  }
  if (type === 'string') {
    const notes = [schema.format, schema.pattern === undefined ? undefined : `matching ${schema.pattern}`].filter((note) => note !== undefined);
    const nonEmpty = schema.minLength === 1 && schema.maxLength === undefined;
    const length = nonEmpty ? '' : bounds(schema.minLength, schema.maxLength, 'characters');
    return `${nonEmpty ? 'non-empty ' : ''}string${notes.length > 0 ? ` (${notes.join(', ')})` : ''}${length}`;
  }
  if (type === 'number' || type === 'integer') return `${type}${range(schema)}`;
  return type ?? 'any';
}

function range(schema: JsonSchema): string {
  const parts: string[] = [];
  if (schema.exclusiveMinimum !== undefined) parts.push(`> ${schema.exclusiveMinimum}`);
  else if (schema.minimum !== undefined && schema.minimum > -MAX_SAFE) parts.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMaximum !== undefined) parts.push(`< ${schema.exclusiveMaximum}`);
  else if (schema.maximum !== undefined && schema.maximum < MAX_SAFE) parts.push(`≤ ${schema.maximum}`);
  return parts.length === 0 ? '' : ` ${parts.join(', ')}`;
}

function bounds(min: number | undefined, max: number | undefined, unit: string): string {
  if (min !== undefined && min > 0 && max !== undefined) return min === max ? `, exactly ${min} ${unit}` : `, ${min}–${max} ${unit}`;
  if (min !== undefined && min > 0) return `, at least ${min} ${unit}`;
  if (max !== undefined) return `, at most ${max} ${unit}`;
  return '';
}

function isEmptyValue(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** A default as it is written in TOML: `"console"`, `[]`, `{ allow = [] }`. */
export function tomlValue(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) return '{}';
  const line = stringify({ v: value }).trim();
  if (line.startsWith('v = ')) return line.slice(4);
  // A table: smol-toml writes it as a [v] section; render it inline instead.
  return `{ ${Object.entries(value as Record<string, unknown>)
    .map(([key, inner]) => `${key} = ${tomlValue(inner)}`)
    .join(', ')} }`;
}
