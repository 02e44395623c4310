import * as z from 'zod';

/** `config/adapters/console.toml`. */
export const configSchema = z.object({
  user_id: z.string().min(1).describe('The id you chat as (the stream is a private chat with this user).').default('console_user'),
  user_name: z.string().min(1).describe('The name the bot sees for you.').default('你'),
  prompt: z.string().describe('The input prompt shown in a terminal (not when reading a pipe).').default('你> '),
});

export type ConsoleConfig = z.output<typeof configSchema>;

export const configHeader = [
  'The console adapter: chat with the bot in this terminal.',
  'Start with `npm start` (the default adapter) or `moonglass start --adapter console`.',
];
