import { existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'smol-toml';
import { ChatRulesConfigSchema } from '../chat/rules/chat-rules-config.js';
import { atomicWriteFile } from '../kernel/config/atomic-write-file.js';
import { configIssues } from '../kernel/config/validate-config.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { AdminHostView, AdminRulesView } from './admin-host-view.js';
import type { ApiResponse } from './admin-api.js';
import { replaceTomlArrayTables } from './replace-toml-array-tables.js';

/** One rule as the Rules page shows it: its fields as bot.toml writes them, and the name it is known by. */
export interface NamedRule {
  /** Its `name`, else `rules[<position from 1>]` (as logs and /status name it). */
  name: string;
  rule: Record<string, unknown>;
}

/** A field the rules failed on: `rules.2.hours.0` and why. */
export interface RuleFieldError {
  field: string;
  reason: string;
}

const TABLE = 'rules';

/** As JSON holds it: a TOML integer past 2^53 (a group id, say) as a string. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? (Number.isSafeInteger(Number(item)) ? Number(item) : String(item)) : item))) as unknown;
}

function named(rules: readonly unknown[]): NamedRule[] {
  return rules.map((rule, index) => {
    const fields = typeof rule === 'object' && rule !== null && !Array.isArray(rule) ? (plain(rule) as Record<string, unknown>) : {};
    const name = typeof fields['name'] === 'string' && fields['name'] !== '' ? fields['name'] : `rules[${index + 1}]`;
    return { name, rule: fields };
  });
}

/**
 * The `[[rules]]` of bot.toml as the file holds them (what a Save wrote, or a hand edit not
 * yet in use until a restart), else (no file, or one that does not parse) the rules in use.
 */
function rulesOf(rules: AdminRulesView): readonly unknown[] {
  if (existsSync(rules.file)) {
    try {
      const data = parse(readFileSync(rules.file, 'utf8')) as Record<string, unknown>;
      const listed = data[TABLE];
      return Array.isArray(listed) ? listed : [];
    } catch {
      // unreadable or not TOML: show what runs
    }
  }
  return rules.list();
}

/**
 * `GET /api/rules`: `{ rules: [{ name, rule }], file, timeZone, inUse }` (`inUse` false: the
 * file's rules are not the ones running, edited by hand since the start or invalid). `PUT /api/rules` with
 * `{ rules: [...] }`: validated as bot.toml's `[[rules]]` (400 with every issue as
 * `{ field: "rules.2.hours.0", reason }`, the file untouched), written into bot.toml by line
 * (only the `[[rules]]` tables change), then put in use on the running host, so the next
 * message is matched against them. Undefined for other paths.
 */
export function handleRulesApi(view: AdminHostView, method: string, parts: readonly string[], body: unknown): ApiResponse | undefined {
  if (parts.length !== 1 || parts[0] !== TABLE) return undefined;
  const rules = view.rules;
  if (method !== 'GET' && method !== 'PUT') return undefined;
  if (rules === undefined) return { status: 404, body: { error: 'this host has no per-chat rules' } };
  if (method === 'GET') {
    const shown = rulesOf(rules);
    // False when the file was edited by hand since the start (or does not validate): what it holds is not what runs.
    const checked = ChatRulesConfigSchema.safeParse(shown);
    const inUse = checked.success && isDeepStrictEqual(plain(checked.data), plain(rules.list()));
    return { status: 200, body: { rules: named(shown), file: rules.file, timeZone: rules.timeZone, inUse } };
  }
  return saveRules(view, rules, body);
}

function saveRules(view: AdminHostView, rules: AdminRulesView, body: unknown): ApiResponse {
  const input = (body as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(input)) return { status: 400, body: { errors: [{ field: TABLE, reason: 'the body must be {"rules": [ … ]}, the list of rules' }] } };
  const checked = ChatRulesConfigSchema.safeParse(input);
  if (!checked.success) {
    const errors: RuleFieldError[] = configIssues(checked.error, ChatRulesConfigSchema, input).map((issue) => ({
      field: issue.path === '' ? TABLE : `${TABLE}.${issue.path}`,
      reason: issue.reason,
    }));
    return { status: 400, body: { errors } };
  }
  // Written as given (validated), so the file holds what the owner wrote, not the defaults filled in.
  const entries = named(input).map((entry) => entry.rule);
  let text = '';
  try {
    if (existsSync(rules.file)) text = readFileSync(rules.file, 'utf8');
  } catch (error) {
    return { status: 422, body: { errors: [{ field: TABLE, reason: `cannot read ${rules.file}: ${describeError(error)}` }] } };
  }
  const replaced = replaceTomlArrayTables(text, TABLE, entries);
  if (!replaced.ok) return { status: 422, body: { errors: [{ field: TABLE, reason: `${rules.file} ${replaced.reason}` }] } };
  try {
    atomicWriteFile(rules.file, replaced.text);
  } catch (error) {
    return { status: 422, body: { errors: [{ field: TABLE, reason: `cannot write ${rules.file}: ${describeError(error)}` }] } };
  }
  try {
    rules.replace(checked.data);
  } catch (error) {
    return { status: 500, body: { errors: [{ field: TABLE, reason: `saved to ${rules.file}, but not put in use (a restart will): ${describeError(error)}` }] } };
  }
  view.logger.info({ file: rules.file, rules: entries.length }, 'bot.toml [[rules]] saved from the web console and put in use');
  return { status: 200, body: { saved: true, rules: named(entries), file: rules.file, timeZone: rules.timeZone } };
}
