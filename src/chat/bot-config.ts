import * as z from 'zod';

/** True when `name` is a time zone this runtime knows (an IANA name such as `Asia/Shanghai`, or `UTC`). */
function isTimeZoneName(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

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
    .record(z.string(), z.string())
    .describe('The bot’s own account id on each platform, e.g. { qq = "123456" }; used to recognise its own messages and mentions.')
    .default({}),
  platform: z
    .object({
      adapter: z
        .string()
        .regex(/^[a-z0-9_]+$/, 'must be an adapter name such as console or onebot_v11')
        .describe('The adapter that connects the bot to a chat platform: console (this terminal) or onebot_v11 (QQ through NapCat or Lagrange). `--adapter` overrides it.')
        .default('console'),
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

export type BotConfig = z.output<typeof BotConfigSchema>;
/** A bot.toml as written: every field may be left out and takes its default. */
export type BotConfigInput = z.input<typeof BotConfigSchema>;

export const BOT_CONFIG_FILE_NAME = 'bot.toml';

export const BOT_CONFIG_HEADER = [
  'The bot: its persona, its accounts, and how conversations run.',
  'Written with the defaults on first start; edit freely. Delete it to get a fresh default one.',
];
