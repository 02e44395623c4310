// Issue 16, item 5, from the compiled host: `moonglass start --watch` in a bot project made
// from the packed moonglass (node_modules/moonglass is dist/, JavaScript; the TypeScript
// loader is registered only when a plugin.ts needs it). A reload must run the plugin's helper
// anew there too, and a syntax error must keep the previous version.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/temp-dir.js';
import { until } from '../support/until.js';
import { installMoonglass, scaffoldProject, setAdminPort } from '../package/support/installed-projects.js';
import { personEnvironment } from '../package/support/run-command.js';

const scratch = mkdtempSync(join(tmpdir(), 'moonglass-watch-installed-'));
let project = '';
let bot: ChildProcess | undefined;

beforeAll(async () => {
  const installed = await installMoonglass(projectRoot, scratch);
  project = await scaffoldProject(installed, 'watched-bot');
  setAdminPort(project, 0);
}, 420_000);

afterAll(async () => {
  if (bot !== undefined && bot.exitCode === null && bot.signalCode === null) {
    const gone = new Promise((resolve) => bot!.once('exit', resolve));
    bot.kill('SIGKILL');
    await gone;
  }
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

const ENTRY = `import { ToolPlugin } from 'moonglass';
import { VERSION } from './lib/version.js';

export class WatchedPlugin extends ToolPlugin {
  override async onLoad(): Promise<void> { this.ctx.logger.info(\`watched onLoad: version \${VERSION}\`); }
}
`;
const versionSource = (version: string) => `export const VERSION: string = '${version}';\n`;

describe('moonglass start --watch from the installed package', () => {
  it('[issue 16.5] reloads a plugin whose helper changed, keeps it through a syntax error, and reloads the fix', async () => {
    const folder = join(project, 'plugins', 'watched');
    mkdirSync(join(folder, 'lib'), { recursive: true });
    writeFileSync(
      join(folder, '_manifest.json'),
      JSON.stringify({ manifest_version: 1, id: 'test.watched', plugin_type: 'tool', name: 'watched', version: '1.0.0', description: 'watched', host_application: { min_version: '0.1.0', max_version: '0.1.9' } }),
    );
    writeFileSync(join(folder, 'plugin.ts'), ENTRY);
    const helper = join(folder, 'lib', 'version.ts');
    writeFileSync(helper, versionSource('v1'));

    // As `npx moonglass start --watch` runs it: the package's bin, on plain Node.
    const child = spawn(process.execPath, [join(project, 'node_modules/moonglass/bin/moonglass.js'), 'start', '--watch'], {
      cwd: project,
      env: personEnvironment(undefined),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    bot = child;
    const messages: string[] = [];
    let rest = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        try {
          messages.push(String((JSON.parse(line) as { msg?: unknown }).msg));
        } catch {
          messages.push(line);
        }
      }
    });
    const logAfter = async (from: number, pattern: RegExp): Promise<string> => {
      const found = () => messages.slice(from).find((message) => pattern.test(message));
      await until(() => found() !== undefined || child.exitCode !== null, { what: `a log line ${pattern}`, timeoutMs: 60_000 }).catch((error: Error) => {
        throw new Error(`${error.message}; the log after line ${from}:\n${messages.slice(from).join('\n')}`);
      });
      if (found() === undefined) throw new Error(`the bot exited (${child.exitCode}) before a log line ${pattern}:\n${messages.join('\n')}`);
      return found()!;
    };

    await logAfter(0, /^ready in/);
    expect(messages).toContain('watching plugins/ for changes');
    expect(messages).toContain('watched onLoad: version v1');

    let from = messages.length;
    writeFileSync(helper, versionSource('v2'));
    expect(await logAfter(from, /^reloaded test\.watched/)).toMatch(/^reloaded test\.watched \(plugins\/watched\) in \d+ ms$/);
    expect(messages.slice(from)).toContain('watched onLoad: version v2');

    from = messages.length;
    writeFileSync(helper, `export const VERSION: string = 'v3'\nexport const = ;\n`);
    const refused = await logAfter(from, /did not reload/);
    expect(refused).toContain('test.watched (plugins/watched) did not reload, the previous version keeps running: entry step:');
    expect(refused).toContain(`at ${helper}:2`);

    from = messages.length;
    writeFileSync(helper, versionSource('v3'));
    await logAfter(from, /^reloaded test\.watched/);
    expect(messages.slice(from)).toContain('watched onLoad: version v3');

    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 180_000);
});
