import * as z from 'zod';
import { describeTomlValue, groupIdSchema } from '../group-id-schema.js';
import { HourRangeSchema } from './hour-range.js';

/** The keys a rule's table takes, for the message that refuses another. */
const RULE_KEYS = ['name', 'accounts', 'groups', 'private', 'hours', 'frequency', 'persona', 'tools_off', 'plugins_off', 'quiet'] as const;
const PERSONA_KEYS = ['nickname', 'aliases', 'personality', 'identity', 'speaking_style'] as const;

/** A bot account id as TOML may hold it: a string or a whole number; kept as a string. */
const accountIdSchema = z.union([z.string().trim().min(1), z.number().int().nonnegative()]).transform(String);

const ChatRulePersonaSchema = z.strictObject({
  nickname: z.string().min(1, 'must not be empty: leave it out to keep the chat’s own nickname').optional().describe('The name the bot goes by in the chat.'),
  aliases: z.array(z.string()).optional().describe('Other names that count as calling it there.'),
  personality: z.string().optional().describe('Who it is there (goes into the system prompt).'),
  identity: z.string().optional().describe('What it knows it is there.'),
  speaking_style: z.string().optional().describe('How it talks there.'),
});

/** The keys of one `bot.toml [[rules]]` table (the config reference documents them from here). */
export const ChatRuleObjectSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty: leave it out to call the rule rules[N]').optional().describe('What logs and the web console call the rule; left out: rules[N].'),
  accounts: z.array(accountIdSchema).optional().describe('Match: the bot account ids (QQ numbers) it applies to; left out: every account.'),
  groups: z.array(groupIdSchema).optional().describe('Match: the group ids it applies to (strings or numbers); left out: every group.'),
  private: z.boolean().optional().describe('Match: true, private chats (also besides the groups listed); false, group chats only; left out: both.'),
  hours: z.array(HourRangeSchema).optional().describe('Match: local "HH:MM-HH:MM" ranges in bot.toml [bot] timezone ("23:00-07:00" crosses midnight); left out: all day.'),
  frequency: z
    .number()
    .min(0, 'must be 0 or more (1: the reply chance as configured)')
    .default(1)
    .describe('Multiplies NDFC’s reply chance for messages that do not @ or reply to the bot; 0: only those are answered, and the sub-agent is not asked about the rest.'),
  persona: ChatRulePersonaSchema.default({}).describe('The persona in the chat, over its own (the account’s or [bot]); each key left out keeps the chat’s own.'),
  tools_off: z.array(z.string().trim().min(1)).default([]).describe('Tool and action names or signatures switched off in the chat.'),
  plugins_off: z.array(z.string().trim().min(1)).default([]).describe('Plugin ids whose tools, actions and commands are switched off in the chat.'),
  quiet: z.boolean().default(false).describe('true: messages are stored and never answered, except owners’ commands.'),
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
