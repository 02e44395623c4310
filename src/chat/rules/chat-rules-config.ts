import * as z from 'zod';
import { describeTomlValue, groupIdSchema } from '../group-id-schema.js';
import { HourRangeSchema } from './hour-range.js';

/** The keys a rule's table takes, for the message that refuses another. */
const RULE_KEYS = ['name', 'accounts', 'groups', 'private', 'hours', 'frequency', 'persona', 'tools_off', 'plugins_off', 'quiet'] as const;
const PERSONA_KEYS = ['nickname', 'aliases', 'personality', 'identity', 'speaking_style'] as const;

/** A bot account id as TOML may hold it: a string or a whole number; kept as a string. */
const accountIdSchema = z.union([z.string().trim().min(1), z.number().int().nonnegative()]).transform(String);

const ChatRulePersonaSchema = z.strictObject({
  nickname: z.string().min(1, 'must not be empty: leave it out to keep the chat’s own nickname').optional(),
  aliases: z.array(z.string()).optional(),
  personality: z.string().optional(),
  identity: z.string().optional(),
  speaking_style: z.string().optional(),
});

const ChatRuleObjectSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty: leave it out to call the rule rules[N]').optional(),
  accounts: z.array(accountIdSchema).optional(),
  groups: z.array(groupIdSchema).optional(),
  private: z.boolean().optional(),
  hours: z.array(HourRangeSchema).optional(),
  frequency: z.number().min(0, 'must be 0 or more (1: the reply chance as configured)').default(1),
  persona: ChatRulePersonaSchema.default({}),
  tools_off: z.array(z.string().trim().min(1)).default([]),
  plugins_off: z.array(z.string().trim().min(1)).default([]),
  quiet: z.boolean().default(false),
});

/** One `bot.toml [[rules]]` entry as validated (defaults filled in). */
export type ChatRuleConfig = z.output<typeof ChatRuleObjectSchema>;
/** One `[[rules]]` entry as written. */
export type ChatRuleConfigInput = z.input<typeof ChatRuleObjectSchema>;

/**
 * One `[[rules]]` entry. Checked by hand around the strict table so that an unknown key is
 * reported at its own path (`rules.1.frequncy`), not as a list on the table.
 */
export const ChatRuleConfigSchema = z.unknown().transform((value, ctx): ChatRuleConfig => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: `${describeTomlValue(value)} is not a rule: write a [[rules]] table with ${RULE_KEYS.join(', ')}` });
    return z.NEVER;
  }
  const result = ChatRuleObjectSchema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = issue.path.at(-1) === 'persona' ? PERSONA_KEYS.join(', ') : RULE_KEYS.join(', ');
      for (const key of issue.keys) ctx.addIssue({ code: 'custom', path: [...issue.path, key], message: `unknown setting: this table takes ${allowed}` });
    } else {
      ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
    }
  }
  return z.NEVER;
}) as unknown as z.ZodType<ChatRuleConfig, ChatRuleConfigInput>;

/** `bot.toml [[rules]]`: per-chat rules, the first matching one applies. */
export const ChatRulesConfigSchema = z.array(ChatRuleConfigSchema);
