import * as z from 'zod';
import { describeTomlValue, groupIdSchema } from './group-id-schema.js';
import { ChatRulesConfigSchema } from './rules/chat-rules-config.js';
import { machineTimeZone } from '../kernel/time/zoned-time.js';

/** True when `name` is a time zone this runtime knows (an IANA name such as `Asia/Shanghai`, or `UTC`). */
function isTimeZoneName(name: string): boolean {
  // The machine's own zone needs no ICU formatter to be known (see zoned-time.ts).
  if (name === machineTimeZone()) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A user id as TOML may hold it: a string or a whole number; kept as a string. */
const userIdSchema = z.union([z.string().trim().min(1), z.number().int().nonnegative()]).transform(String);

/** `{ qq = ["20001", 20002] }`: user ids per platform. */
const userIdsPerPlatform = z.record(z.string(), z.array(userIdSchema));

/** `{ replies = 3, window_seconds = 60 }`. */
const replyLimit = z.strictObject({
  replies: z.number().int().positive().describe('How many messages are answered per window.'),
  window_seconds: z.number().positive().describe('The window, in seconds (a sliding one).'),
});

/** The settings one account's table may hold; each replaces the same setting of `[bot]` (or the adapter's `[groups]`) for that account. */
const ACCOUNT_SETTINGS = ['nickname', 'aliases', 'personality', 'identity', 'speaking_style', 'groups'] as const;

const AccountOverrideSchema = z.strictObject({
  nickname: z.string().min(1, 'must not be empty: leave it out to use [bot] nickname').optional(),
  aliases: z.array(z.string()).optional(),
  personality: z.string().optional(),
  identity: z.string().optional(),
  speaking_style: z.string().optional(),
  groups: z
    .strictObject({
      allow: z.array(groupIdSchema).default([]),
      deny: z.array(groupIdSchema).default([]),
    })
    .optional(),
});

/** `bot.toml [accounts."<self id>"]`: one account's own persona and groups. */
export type AccountOverride = z.output<typeof AccountOverrideSchema>;

/**
 * One `[accounts]` entry: a platform's default account id (a string), or an account's table.
 * Checked by hand rather than as a zod union, whose error for a bad table is only "Invalid
 * input": here an unknown key is reported at its own path (`accounts.10001.nick`).
 */
const accountEntry = z.unknown().transform((value, ctx): string | AccountOverride => {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `${describeTomlValue(value)} is neither an account id (a string such as "10000", for a platform) nor an account's table (for an account id, with ${ACCOUNT_SETTINGS.join(', ')})`,
    });
    return z.NEVER;
  }
  const result = AccountOverrideSchema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = issue.path.at(-1) === 'groups' ? 'allow and deny' : ACCOUNT_SETTINGS.join(', ');
      for (const key of issue.keys) ctx.addIssue({ code: 'custom', path: [...issue.path, key], message: `unknown setting: this table takes ${allowed}` });
    } else {
      ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
    }
  }
  return z.NEVER;
}) as unknown as z.ZodType<string | AccountOverride, string | z.input<typeof AccountOverrideSchema>>;

/** `config/bot.toml`: who the bot is, its accounts, and how its conversations run. */
export const BotConfigSchema = z.object({
  bot: z
    .object({
      nickname: z.string().min(1).describe('The name the bot goes by.').default('月璃'),
      aliases: z.array(z.string()).describe('Other names people call it; mentions of these count as calling it.').default([]),
      personality: z.string().describe('Who it is, in a few sentences (goes into the system prompt).').default('一个温和、好奇、说话简短的聊天伙伴。'),
      identity: z.string().describe('What it knows it is.').default('一个生活在聊天软件里的 AI，对自己是虚拟的这件事很坦然。'),
      speaking_style: z.string().describe('How it talks.').default('口语化，一次只说一两句话，不用表情符号。'),
      timezone: z
        .string()
        .trim()
        .refine((value) => value === '' || isTimeZoneName(value), {
          error: (issue) =>
            `${JSON.stringify(issue.input)} is not a time zone: use an IANA name such as "Asia/Shanghai" or "UTC", or "" for the machine’s time zone`,
        })
        .describe(
          'The time zone of every time the bot reads in its prompts (message times, the current time), as an IANA name such as "Asia/Shanghai"; empty: the machine’s time zone.',
        )
        .default(''),
    })
    .describe('The persona.')
    .prefault({}),
  accounts: z
    .record(z.string(), accountEntry)
    .describe(
      [
        'The bot’s own accounts.',
        'A string per platform names its default account there, e.g. qq = "10000": its own messages and mentions are recognised by it, and actions that name no account go to it.',
        'A table per account id gives that account its own persona and groups; what the table leaves out comes from [bot] and the adapter’s [groups]. Several QQ accounts on one bot, for example (write these tables in place of the line below):',
        '  [accounts]',
        '  qq = "10000"',
        '  [accounts."10001"]',
        '  nickname = "星璃"',
        '  aliases = ["小星"]',
        '  personality = "…"',
        '  identity = "…"',
        '  speaking_style = "…"',
        '  groups = { allow = ["123456"], deny = [] }',
      ].join('\n'),
    )
    .default({}),
  platform: z
    .object({
      adapter: z
        .string()
        .regex(/^[a-z0-9_]+$/, 'must be an adapter name such as console or onebot_v11')
        .describe('The adapter that connects the bot to a chat platform: console (this terminal) or onebot_v11 (QQ through NapCat or Lagrange). `--adapter` overrides it.')
        .default('console'),
      isolation: z
        .enum(['process', 'thread'])
        .describe(
          'Where the adapter runs: "thread", a worker thread of the bot’s process, with its own event loop and heap (a crash or a blocked loop there only restarts the adapter), or "process", a process of its own (about 40–60 MiB more memory; the operating system also bounds its memory and a native crash). Default: "thread"; for the console adapter "process", which a terminal needs.',
        )
        .optional(),
    })
    .describe('Where the bot chats. The adapter’s own settings are in config/adapters/<name>.toml.')
    .prefault({}),
  chat: z
    .object({
      default_chatter: z
        .string()
        .describe('The chatter that runs conversations (a chatter signature).')
        .default('neo_default_chatter:chatter:neo_default_chatter'),
      message_buffer_seconds: z.number().min(0).describe('Wait this long after the newest message before replying (people type in bursts).').default(1),
      step_timeout_seconds: z.number().positive().describe('Longest a single chatter step may take before it is abandoned.').default(90),
      failure_retry_seconds: z
        .number()
        .positive()
        .describe('A run that failed (the model endpoint was down, say) with messages still unread is tried again after this long, doubled at each failure in a row.')
        .default(5),
      failure_retry_max_seconds: z.number().positive().describe('The longest wait between two tries of a failed run.').default(300),
      send_deadline_seconds: z
        .number()
        .positive()
        .describe(
          'A reply that could not be delivered (the QQ client is disconnected, say) waits in the outbox and is sent when the connection is back, up to this long after it was written; then it is dropped with a warning and the next turn sees it was not delivered.',
        )
        .default(600),
    })
    .describe('How conversations run.')
    .prefault({}),
  commands: z
    .object({
      prefixes: z
        .array(z.string().trim().min(1, 'a prefix must not be empty'))
        .describe('A message that starts with one of these (also right after an @ of the bot in a group) is a command, e.g. "/help". Empty: no commands.')
        .default(['/']),
    })
    .describe('Deterministic commands that run before the chatter (`/help` lists the ones a sender may use).')
    .prefault({}),
  permissions: z
    .object({
      owners: userIdsPerPlatform.describe('The bot’s owners per platform, e.g. { qq = ["20001"] }: every command, also in muted chats and quiet hours.').default({}),
      admins: userIdsPerPlatform
        .describe('Admins per platform besides the group owner and admins (who are admins in their own group), e.g. { qq = ["20002"] }.')
        .default({}),
      blocklist: userIdsPerPlatform
        .describe('Users whose messages are stored but never answered (guests), per platform, e.g. { qq = ["20003"] }.')
        .default({}),
    })
    .describe('Who may do what: owner > admin > member > guest. Everyone not listed is a member.')
    .prefault({}),
  limits: z
    .object({
      per_user: replyLimit.describe('Most messages of one user answered per window, across chats, e.g. { replies = 3, window_seconds = 60 }. Past it the bot stays silent for that user (one debug line).').optional(),
      per_chat: replyLimit.describe('Most messages answered per window in one conversation (a group or a private chat), e.g. { replies = 20, window_seconds = 60 }.').optional(),
    })
    .describe('Rate limits; none by default.')
    .prefault({}),
  rules: ChatRulesConfigSchema.describe(
    [
      'Per-chat rules, each a [[rules]] table; the first whose match keys all fit a chat applies there (none: the settings above, unchanged).',
      'Match keys (each left out matches everything): accounts (the bot account ids), groups (group ids), private (true: private chats, also besides groups; false: group chats only), hours (local "HH:MM-HH:MM" ranges in [bot] timezone; "23:00-07:00" crosses midnight).',
      'Settings: frequency multiplies NDFC’s reply chance for messages that do not @ or reply to the bot (default 1; 0: only those are answered, and the sub-agent is not asked about the rest); persona (nickname, aliases, personality, identity, speaking_style) over the chat’s own; tools_off (tool and action names or signatures) and plugins_off (plugin ids: their tools, actions and commands) are switched off in the chat; quiet = true: messages are stored and never answered, except owners’ commands. For example:',
      '  [[rules]]',
      '  name = "night"',
      '  groups = ["123456"]',
      '  hours = ["23:00-07:00"]',
      '  quiet = true',
      '  [[rules]]',
      '  groups = [123456, "654321"]',
      '  frequency = 0.25',
      '  plugins_off = ["web_search"]',
      '  persona = { nickname = "小璃" }',
    ].join('\n'),
  ).default([]),
  storage: z
    .object({
      keep_days: z
        .number()
        .positive()
        .describe('Messages older than this many days are deleted (checked once a day) and the database file is compacted.')
        .default(90),
    })
    .describe('How long the database keeps messages.')
    .prefault({}),
});

/** `config/bot.toml` as validated, every default filled in (see `BotConfigSchema`). */
export type BotConfig = z.output<typeof BotConfigSchema>;
/** A bot.toml as written: every field may be left out and takes its default. */
export type BotConfigInput = z.input<typeof BotConfigSchema>;

/** The bot config's file name inside the config folder. */
export const BOT_CONFIG_FILE_NAME = 'bot.toml';

/** The comment lines written at the top of a fresh default `bot.toml`. */
export const BOT_CONFIG_HEADER = [
  'The bot: its persona, its accounts, and how conversations run.',
  'Written with the defaults on first start; edit freely. Delete it to get a fresh default one.',
];
