import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { storedRows } from '../support/stored-messages.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// The real CLI with the console adapter (a grandchild process, deliveries over IPC); the
// offline demo model calls the tool a message names (`!send_media {...}`).
describe('npm start with the console adapter: send_media (issue 17 item 3)', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  it('[issue 17] prints a picture after its caption, a URL as is and a local file by its size, and stores "[图片]"', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'data', 'media'), { recursive: true });
    writeFileSync(join(cwd, 'data', 'media', 'cat.png'), Buffer.alloc(2048, 1));
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd });
    bot.child.stdin!.write('!send_media {"kind":"image","file":"https://img.example/cat.png","caption":"看"}\n');
    const url = await bot.waitForStdout(/^月璃> /);
    bot.child.stdin!.write('!send_media {"kind":"image","file":"media/cat.png"}\n');
    bot.child.stdin!.end();
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(url).toBe('月璃> 看 [图片 https://img.example/cat.png]');
    expect(bot.stdout.filter((line) => line.startsWith('月璃> '))).toEqual([url, '月璃> [图片 base64, 2 KiB]']);
    const stored = storedRows(join(cwd, 'data'), "SELECT processed_plain_text AS text FROM messages WHERE direction = 'outbound' ORDER BY row_id");
    expect(stored).toEqual([{ text: '看 [图片]' }, { text: '[图片]' }]);
  });
});
