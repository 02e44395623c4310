import type * as z from 'zod';
import type { CommandMetadata } from '../kernel/components/command-metadata.js';
import { acceptsMissing, isBooleanSchema } from './schema-facts.js';
import { type CommandToken, tokenizeCommandLine } from './tokenize-command-line.js';

/** A command's arguments and options, validated by their schemas. */
export interface ParsedCommandInput {
  args: Record<string, unknown>;
  options: Record<string, unknown>;
}

/** What {@link parseCommandInput} makes of a command line: the parsed input, or the reason (in Chinese, for the sender) it does not fit the command. */
export type ParseCommandResult = { readonly ok: true; readonly input: ParsedCommandInput } | { readonly ok: false; readonly reason: string };

type ParseFacts = Pick<CommandMetadata, 'args' | 'rest' | 'options' | 'short'>;

const FLAG_WORDS: Readonly<Record<string, boolean>> = { true: true, false: false, yes: true, no: false, on: true, off: false, '1': true, '0': false };

function fail(reason: string): ParseCommandResult {
  return { ok: false, reason };
}

function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? error.message;
}

/**
 * Parses what follows a command's name. Options (`--name value`, `--name=value`, a boolean
 * `--flag`, `-v` for a declared short name) may stand anywhere before a `rest` argument; `--`
 * ends them. Positional words fill the arguments in declaration order. Every value goes
 * through its schema (so `z.coerce.number()` turns "3" into 3); the first problem is the
 * reason, in Chinese, naming the argument or option.
 */
export function parseCommandInput(line: string, command: ParseFacts): ParseCommandResult {
  const tokenized = tokenizeCommandLine(line);
  if (!tokenized.ok) return fail(tokenized.reason);
  const names = Object.keys(command.args);
  const positional: string[] = [];
  const given: Record<string, unknown> = {};
  const tokens = tokenized.tokens;
  let optionsEnded = false;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (command.rest && positional.length === names.length - 1 && (optionsEnded || !looksLikeOption(token))) {
      positional.push(restOf(line, token));
      break;
    }
    if (!optionsEnded && !token.quoted && token.value === '--') {
      optionsEnded = true;
      continue;
    }
    if (optionsEnded || !looksLikeOption(token)) {
      positional.push(token.value);
      continue;
    }
    const next = tokens[index + 1];
    const taken = token.value.startsWith('--') ? readLongOption(token.value.slice(2), next, command, given) : readShortOptions(token.value.slice(1), next, command, given);
    if (typeof taken === 'string') return fail(taken);
    index += taken;
  }
  if (positional.length > names.length) return fail(`多余的参数：${positional.slice(names.length).join(' ')}`);

  const args: Record<string, unknown> = {};
  for (const [position, name] of names.entries()) {
    const schema = command.args[name]!;
    const value = positional[position];
    if (value === undefined && !acceptsMissing(schema)) return fail(`缺少参数 ${name}`);
    const parsed = schema.safeParse(value);
    if (!parsed.success) return fail(`参数 ${name} 不对：${firstIssue(parsed.error)}`);
    args[name] = parsed.data;
  }
  const options: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(command.options)) {
    const value = given[name];
    if (value === undefined && !acceptsMissing(schema)) return fail(`缺少选项 --${name}`);
    const parsed = schema.safeParse(value);
    if (!parsed.success) return fail(`选项 --${name} 不对：${firstIssue(parsed.error)}`);
    options[name] = parsed.data;
  }
  return { ok: true, input: { args, options } };
}

/** `--x` or `-x`, unquoted; `-3` is a (negative) number, not an option. */
function looksLikeOption(token: CommandToken): boolean {
  if (token.quoted) return false;
  return /^--[A-Za-z0-9_-]/.test(token.value) || /^-[A-Za-z]+$/.test(token.value);
}

/** The line from the token on, as written (quotes kept), trailing whitespace dropped. */
function restOf(line: string, token: CommandToken): string {
  return line.slice(token.start).trimEnd();
}

/** How many following tokens it consumed, or the reason it is wrong. */
function readLongOption(text: string, next: CommandToken | undefined, command: ParseFacts, given: Record<string, unknown>): number | string {
  const equals = text.indexOf('=');
  const name = equals < 0 ? text : text.slice(0, equals);
  const schema = command.options[name];
  if (schema === undefined) return `未知选项 --${name}`;
  if (equals >= 0) {
    given[name] = flagValue(schema, text.slice(equals + 1));
    return 0;
  }
  if (isBooleanSchema(schema)) {
    given[name] = true;
    return 0;
  }
  if (next === undefined) return `选项 --${name} 需要一个值`;
  given[name] = next.value;
  return 1;
}

/** `-v`, `-vq` (flags), `-n 3` (one letter taking the next word). */
function readShortOptions(letters: string, next: CommandToken | undefined, command: ParseFacts, given: Record<string, unknown>): number | string {
  for (const [position, letter] of [...letters].entries()) {
    const name = command.short[letter];
    if (name === undefined) return `未知选项 -${letter}`;
    const schema = command.options[name]!;
    if (isBooleanSchema(schema)) {
      given[name] = true;
      continue;
    }
    if (position !== letters.length - 1) return `选项 -${letter} 需要一个值，不能和别的选项连写`;
    if (next === undefined) return `选项 -${letter} 需要一个值`;
    given[name] = next.value;
    return 1;
  }
  return 0;
}

/** `--verbose=false` for a boolean option is false; other values stay text for their schema. */
function flagValue(schema: z.ZodType, text: string): unknown {
  if (!isBooleanSchema(schema)) return text;
  return FLAG_WORDS[text.toLowerCase()] ?? text;
}
