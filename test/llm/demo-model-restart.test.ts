import Database from 'better-sqlite3';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { storedMessages } from '../support/stored-messages.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

/** The tools and actions the bot in `dataDir` has run, oldest first (read-only; the bot is another process). */
function toolRuns(dataDir: string): string[] {
  const file = join(dataDir, 'moonglass.db');
  if (!existsSync(file)) return [];
  const database = new Database(file, { readonly: true });
  try {
    const migrated = database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tool_calls'").get() !== undefined;
    if (!migrated) return [];
    return (database.prepare('SELECT tool_name FROM tool_calls ORDER BY row_id').all() as { tool_name: string }[]).map((row) => row.tool_name);
  } finally {
    database.close();
  }
}

// The real CLI (`npm start`'s `src/app/main.ts`) with the console adapter and the offline demo
// model, started twice on the same data folder. The dice plugin is in the project's plugins/;
// NDFC types at once so the test does not wait on the typing delay.
describe('the offline demo model across a restart (issue 15, item 9)', () => {
  // After-hooks run in reverse: the processes are stopped before their folder is removed.
  const tempDir = useProjectTempDir();
  const run = useBotProcesses();

  it('[issue 15] reads only the newest message: the first message after a restart does not run the !tool command in the history again', async () => {
    const cwd = tempDir();
    cpSync(join(projectRoot, 'plugins', 'dice'), join(cwd, 'plugins', 'dice'), { recursive: true });
    const data = join(cwd, 'data');
    const args = ['start', '--config-dir', 'config', '--data-dir', 'data'];
    const pluginConfigs = { neo_default_chatter: '[plugin]\ntyping_delay_per_char = 0\ntyping_delay_max_seconds = 0\n' };

    const first = run(args, { cwd, pluginConfigs });
    first.child.stdin!.write('!roll_dice {"count": 1, "sides": 6}\n');
    await until(() => toolRuns(data).length > 0, { what: 'the first run to roll the dice' });
    first.child.stdin!.end();
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(toolRuns(data)).toEqual(['roll_dice']);

    const second = run(args, { cwd, pluginConfigs });
    second.child.stdin!.write('你好\n');
    second.child.stdin!.end();
    expect(await second.waitForStdout(/^月璃> /)).toBe('月璃> （演示模型）收到：你好');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    // The history the second run read held the command; the dice were not rolled again.
    expect(toolRuns(data)).toEqual(['roll_dice', 'send_text']);
    expect(storedMessages(data)).toEqual([
      { direction: 'inbound', content: '!roll_dice {"count": 1, "sides": 6}' },
      { direction: 'inbound', content: '你好' },
      { direction: 'outbound', content: '（演示模型）收到：你好' },
    ]);
  }, 60_000); // two starts of the real CLI
});
