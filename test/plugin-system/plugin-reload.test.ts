import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

const HELLO = join(projectRoot, 'src/plugins/built_in/hello-yueli');
const context = { streamId: 's1', signal: new AbortController().signal, capabilities: new Set<string>() };

describe('PluginManager.reload', () => {
  const workDir = useProjectTempDir();

  it('loads a plugin switched on in its saved config, applies a changed value on the next reload, and unloads it when switched off', async () => {
    const { manager, roots, tools } = createTestManager(workDir(), { builtInFolders: [HELLO] });
    await manager.loadAll();
    expect(manager.list().find((status) => status.id === 'example.hello-yueli')?.state).toBe('disabled');
    const file = join(roots.builtIn, 'hello-yueli', 'config.toml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('enabled = false', 'enabled = true'));

    expect(await manager.reload('example.hello-yueli')).toMatchObject({ state: 'loaded', signatures: ['example.hello-yueli:tool:hello_yueli'] });
    expect((await tools.execute({ toolName: 'hello_yueli', callId: 'c1', arguments: {} }, context)).observation).toBe('你好！');

    writeFileSync(file, readFileSync(file, 'utf8').replace('"你好"', '"晚上好"'));
    await manager.reload('example.hello-yueli');
    expect((await tools.execute({ toolName: 'hello_yueli', callId: 'c2', arguments: {} }, context)).observation).toBe('晚上好！');
    expect(manager.plugins()).toHaveLength(1);

    writeFileSync(file, readFileSync(file, 'utf8').replace('enabled = true', 'enabled = false'));
    expect(await manager.reload('example.hello-yueli')).toMatchObject({ state: 'disabled' });
    expect(manager.plugins()).toEqual([]);
    expect(tools.get('hello_yueli')).toBeUndefined();
  });

  it('refuses an id it never discovered, naming it', async () => {
    const { manager } = createTestManager(workDir(), { builtInFolders: [HELLO] });
    await manager.loadAll();
    await expect(manager.reload('nope')).rejects.toThrow(/PluginManager.reload\(\): pluginId must be the id of a discovered plugin, got nope/);
  });
});
