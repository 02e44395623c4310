import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pluginFolderOfChange } from '../../src/app/watch/plugin-folder-of-change.js';
import { watchPluginFolders, type PluginFolderWatch } from '../../src/app/watch/watch-plugin-folders.js';
import { recorded, recorderSource, writePluginFolder } from '../plugin-system/support/plugin-folders.js';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 16, item 5, in process: the watcher over a real plugins/ folder (real fs.watch
// events) and a real plugin manager, on the manual clock: a burst of saves is one reload,
// and only once the folder has been quiet for the debounce time on the host's clock.

const KEY = '__watchDebounceTimeline';

function source(version: string): string {
  return `import { ToolPlugin } from 'moonglass';
${recorderSource(KEY)}
export class Plugin extends ToolPlugin {
  override async onLoad(): Promise<void> { record('onLoad:${version}'); }
  override async onUnload(): Promise<void> { record('onUnload:${version}'); }
}
`;
}

describe('the plugin folder watcher', () => {
  const tempDir = useProjectTempDir();
  const watches: PluginFolderWatch[] = [];
  afterEach(async () => {
    for (const watch of watches.splice(0)) await watch.stop();
  });

  it('[issue 16.5] reloads a plugin once per burst of saves, after it has been quiet for 150 ms on the host clock', async () => {
    const test = createTestManager(tempDir());
    const folder = writePluginFolder(test.roots.thirdParty, { id: 'a.watched', source: source('v1') });
    await test.manager.loadAll();
    expect(recorded(KEY)).toEqual(['onLoad:v1']);
    const watch = watchPluginFolders({ pluginsDir: test.roots.thirdParty, plugins: test.manager, clock: test.clock, logger: test.logger });
    watches.push(watch);

    for (const version of ['v2', 'v3', 'v4']) writeFileSync(join(folder, 'plugin.ts'), source(version));
    await until(() => test.clock.pendingTimers > 0, { what: 'the file events to reach the watcher' });
    expect(test.clock.pendingTimers).toBe(1); // one timer for the folder, however many events

    await test.clock.advance(149);
    await watch.settled();
    expect(recorded(KEY)).toEqual([]); // not quiet long enough yet

    // (advancing a whole quiet period more also covers a late event that restarted the wait)
    await test.clock.advance(150);
    await until(() => test.manager.get('a.watched') !== undefined && test.records.some((record) => String(record.msg).startsWith('reloaded a.watched')), {
      what: 'the reload',
    });
    await watch.settled();
    expect(recorded(KEY)).toEqual(['onUnload:v1', 'onLoad:v4']);
    expect(test.records.map((record) => String(record.msg))).toContainEqual(expect.stringMatching(/^watching .*third-party\/ for changes$/));
  });

  it('[issue 16.5] a change counts for the plugin folder it is in, except its config.toml, editor swap and backup files, dot-folders and node_modules', () => {
    expect(pluginFolderOfChange('weather')).toBe('weather');
    expect(pluginFolderOfChange('weather/plugin.ts')).toBe('weather');
    expect(pluginFolderOfChange('weather/lib/deep/helper.ts')).toBe('weather');
    expect(pluginFolderOfChange('weather/_manifest.json')).toBe('weather');
    for (const ignored of ['weather/config.toml', 'weather/plugin.ts~', 'weather/.plugin.ts.swp', 'weather/4913', 'weather/node_modules/x/index.js', 'weather/.git/index', '.hidden/plugin.ts', 'weather/plugin.ts___jb_tmp___']) {
      expect(pluginFolderOfChange(ignored), ignored).toBeUndefined();
    }
  });
});
