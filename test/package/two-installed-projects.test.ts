// Issue 16, "two hosts from two scaffolded projects on one machine do not share any file":
// one installed moonglass, `npx moonglass init a` and `init b`, both installed and started with
// `npm start` as their README says, each with its own HOME and both with one temp folder (the
// machine's /tmp). Every file either host writes must be inside its own project.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { storedMessages } from '../support/stored-messages.js';
import { projectRoot } from '../support/temp-dir.js';
import { changedPaths, snapshotTree } from './support/file-tree.js';
import { installMoonglass, npmStart, scaffoldProject, setAdminPort } from './support/installed-projects.js';

// scratch/empty: the installed moonglass, with the projects a/ and b/ inside it;
// scratch/home-a, home-b: each person's HOME; scratch/tmp: the temp folder both share;
// scratch/npm-a, npm-b: npm's own cache folder, where npm itself logs every `npm start` (not watched).
const scratch = mkdtempSync(join(tmpdir(), 'moonglass-two-bots-'));
const shared = join(scratch, 'tmp');
const notWatched = (path: string) => /^npm-[ab]$/.test(path);
const projects = { a: '', b: '' };

function personOf(name: 'a' | 'b'): NodeJS.ProcessEnv {
  const home = join(scratch, `home-${name}`);
  return {
    HOME: home,
    TMPDIR: shared,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    npm_config_cache: join(scratch, `npm-${name}`),
  };
}

// The example plugin.ts is compiled once into each project's data/cache/plugins/ (issue 20,
// src/plugin-system/loader/compiled-entry.ts); tsx, whose cache is in `<tmp>/tsx-<uid>/`, is
// not registered at all. So nothing at all may be written outside the projects.

function inside(project: 'a' | 'b', path: string): boolean {
  return path === `empty/${project}` || path.startsWith(`empty/${project}/`);
}

beforeAll(async () => {
  for (const folder of ['home-a', 'home-b', 'tmp', 'npm-a', 'npm-b']) mkdirSync(join(scratch, folder));
  const installed = await installMoonglass(projectRoot, scratch);
  [projects.a, projects.b] = await Promise.all([scaffoldProject(installed, 'a'), scaffoldProject(installed, 'b')]);
  // Two bots on one machine need two web console ports; everything else is the default.
  setAdminPort(projects.a, await freePort());
  setAdminPort(projects.b, await freePort());
}, 240_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }), 60_000);

describe('two bot projects scaffolded from one installed moonglass', () => {
  const written: Record<'a' | 'b', string[]> = { a: [], b: [] };

  it('[issue 16] each host, started alone, answers and writes only inside its own project (config/, data/ with its SQLite file, its plugin configs), not in its HOME, the shared temp folder, the install folder or any node_modules', async () => {
    for (const name of ['a', 'b'] as const) {
      const before = snapshotTree(scratch, notWatched);
      const start = await npmStart(projects[name], [`你好 from ${name}`], personOf(name));
      written[name] = changedPaths(before, snapshotTree(scratch, notWatched));
      expect(start.stdout, start.stderr).toContain(`（演示模型）收到：你好 from ${name}`);
      expect(start.code).toBe(0);

      const outside = written[name].filter((path) => !inside(name, path));
      expect(outside, `${name} wrote outside its project`).toEqual([]);
      expect(written[name].filter((path) => path.startsWith(`empty/${name}/node_modules`)), `${name} wrote into its node_modules`).toEqual([]);
      // What it wrote is the host's settings, its data and the example plugin's config.
      for (const file of ['config/bot.toml', 'config/models.toml', 'config/adapters/console.toml', 'config/plugins/neo_default_chatter.toml', 'data/moonglass.db', 'plugins/dice/config.toml']) {
        expect(written[name], `${name}: ${file}`).toContain(`empty/${name}/${file}`);
      }
      // And the compiled example plugin, in its own data folder.
      expect(written[name]).toContainEqual(expect.stringMatching(new RegExp(`^empty/${name}/data/cache/plugins/dice-[0-9a-f]{12}/plugin-[0-9a-f]{16}\\.mjs$`)));
    }
    expect(storedMessages(join(projects.a, 'data')).map((message) => message.content).join('\n')).not.toContain('from b');
    expect(storedMessages(join(projects.b, 'data')).map((message) => message.content).join('\n')).not.toContain('from a');
  }, 120_000);

  it('[issue 16] both hosts running at the same time each answer their own chat, from their own data folder, and still write nothing outside their projects', async () => {
    const before = snapshotTree(scratch, notWatched);
    const [a, b] = await Promise.all([npmStart(projects.a, ['again from a'], personOf('a')), npmStart(projects.b, ['again from b'], personOf('b'))]);
    const changes = changedPaths(before, snapshotTree(scratch, notWatched));

    expect(a.stdout, a.stderr).toContain('（演示模型）收到：again from a');
    expect(b.stdout, b.stderr).toContain('（演示模型）收到：again from b');
    expect(a.stdout).not.toContain('from b');
    expect(b.stdout).not.toContain('from a');
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(changes.filter((path) => !inside('a', path) && !inside('b', path))).toEqual([]);
    expect(changes.filter((path) => /^empty\/[ab]\/node_modules/.test(path))).toEqual([]);

    const contents = (project: string) => storedMessages(join(project, 'data')).map((message) => message.content);
    expect(contents(projects.a)).toContain('again from a');
    expect(contents(projects.a).filter((text) => text.includes('from b'))).toEqual([]);
    expect(contents(projects.b)).toContain('again from b');
    expect(contents(projects.b).filter((text) => text.includes('from a'))).toEqual([]);
  }, 90_000);
});
