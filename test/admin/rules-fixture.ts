import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestHost } from '../../src/testing/create-test-host.js';

/** A bot.toml with comments, tables before and after its [[rules]], one rule named and one not. */
export const RULES_BOT_TOML = `# my bot
[bot]
nickname = "月" # the name in chats
timezone = "Asia/Shanghai"

# Per-chat rules: the first match wins.
[[rules]]
name = "study"
groups = ["100"]
frequency = 0.5

# nights are quiet
[[rules]]
hours = ["23:00-07:00"]
quiet = true

# who may steer it
[permissions]
owners = { test = ["90000"] }
`;

/** The same settings for the test host (which takes bot.toml as an object). */
export const RULES_BOT_CONFIG = {
  bot: { nickname: '月', timezone: 'Asia/Shanghai' },
  rules: [
    { name: 'study', groups: ['100'], frequency: 0.5 },
    { hours: ['23:00-07:00'], quiet: true },
  ],
  permissions: { owners: { test: ['90000'] } },
};

/** Writes RULES_BOT_TOML as the host's config/bot.toml (the file the console reads and saves); its path. */
export function writeRulesBotToml(test: TestHost, text = RULES_BOT_TOML): string {
  mkdirSync(test.host.info.configDir, { recursive: true });
  const file = join(test.host.info.configDir, 'bot.toml');
  writeFileSync(file, text);
  return file;
}
