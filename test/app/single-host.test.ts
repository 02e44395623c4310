import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// Issue 13, item 5: one host per data folder, through the real CLI (`npm start`).

const START = ['start', '--config-dir', 'config', '--data-dir', 'data'];

describe('two hosts on one data folder', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  it('[cli] the second start exits 1 naming the folder and the first host’s pid, and the first keeps running', async () => {
    const cwd = tempDir();
    const first = run(START, { cwd });
    await first.waitForLog(/^ready in/);
    const lock = join(cwd, 'data', 'moonglass.lock');
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: first.child.pid });

    const second = run(START, { cwd });
    expect(await second.exited).toEqual({ code: 1, signal: null });
    const fatal = second.logs.find((record) => record['level'] === 60);
    expect(fatal).toMatchObject({ code: 'MG_DATA_FOLDER_LOCKED' });
    expect(String(fatal!['msg'])).toContain(`data folder ${join(cwd, 'data')} is in use by another moonglass host, process ${first.child.pid}`);

    expect(first.child.exitCode).toBeNull();
    expect(existsSync(lock)).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('[fault] after the first host is killed with SIGKILL, a new start takes over its stale lock', async () => {
    const cwd = tempDir();
    const first = run(START, { cwd });
    await first.waitForLog(/^ready in/);
    const deadPid = first.child.pid;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(join(cwd, 'data', 'moonglass.lock'))).toBe(true);

    const again = run(START, { cwd });
    await again.waitForLog(/^ready in/);
    expect(again.logs).toContainEqual(expect.objectContaining({ pid: deadPid, msg: expect.stringContaining(`removed a stale lock of the data folder from process ${deadPid}`) }));
    expect(JSON.parse(readFileSync(join(cwd, 'data', 'moonglass.lock'), 'utf8'))).toMatchObject({ pid: again.child.pid });
    again.child.kill('SIGTERM');
    expect(await again.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
