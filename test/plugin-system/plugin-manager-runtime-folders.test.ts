import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { type PluginFolderSpec, recorded, recorderSource, writePluginFolder } from './support/plugin-folders.js';

// Issue 16, items 4 and 5: plugins come and go while the host runs. `loadFolder` loads a
// folder the host did not see at start (a package just installed, a folder just created in
// plugins/ under --watch); `removePlugin` takes one out (a package removed, a folder deleted).

const KEY = '__runtimeFoldersTimeline';
const context = { streamId: 's1', signal: new AbortController().signal, capabilities: new Set<string>() };

const toolNameOf = (id: string): string => id.replace(/\W/g, '_');

/** A plugin with one tool answering `answer`, recording its import, onLoad and onUnload. */
function source(id: string, answer = `answer from ${id}`): string {
  return `import { ToolExecutionResult, ToolPlugin, tool, type ToolInvocation } from 'moonglass';
${recorderSource(KEY)}
record('import:${id}');
export class Plugin extends ToolPlugin {
  override async onLoad(): Promise<void> { record('onLoad:${id}'); }
  override async onUnload(): Promise<void> { record('onUnload:${id}'); }
  @tool({
    name: '${toolNameOf(id)}',
    description: 'answers',
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    sideEffect: 'readonly',
  })
  async answer(invocation: ToolInvocation): Promise<ToolExecutionResult> {
    return new ToolExecutionResult({ toolName: invocation.toolName, success: true, observation: ${JSON.stringify(answer)} });
  }
}
`;
}

describe('PluginManager at run time: loadFolder, removePlugin and reloadKeepingPrevious (plugins added, removed and changed while the host runs)', () => {
  const tempDir = useProjectTempDir();

  /** A manager over the `atStart` plugins (third-party root), loaded; `add` writes a new folder into the root. */
  async function setUp(atStart: readonly Omit<PluginFolderSpec, 'source'>[] = []) {
    const test = createTestManager(tempDir());
    for (const spec of atStart) writePluginFolder(test.roots.thirdParty, { ...spec, source: source(spec.id) });
    await test.manager.loadAll();
    recorded(KEY);
    const add = (spec: Omit<PluginFolderSpec, 'source'>, root = test.roots.thirdParty) => writePluginFolder(root, { ...spec, source: source(spec.id) });
    const statusOf = (id: string) => test.manager.list().find((status) => status.id === id && status.stage !== 'duplicate');
    const answer = async (id: string) => (await test.tools.execute({ toolName: toolNameOf(id), callId: 'c1', arguments: {} }, context)).observation;
    return { ...test, add, statusOf, answer };
  }

  it('[issue 16.4] a folder the host did not see at start loads: it is listed, its onLoad ran and its tool answers', async () => {
    const test = await setUp([{ id: 'a.first' }]);
    const folder = test.add({ id: 'b.late' });

    await expect(test.manager.loadFolder(folder)).resolves.toMatchObject({ id: 'b.late', folder, state: 'loaded', signatures: ['b.late:tool:b_late'] });
    expect(recorded(KEY)).toEqual(['import:b.late', 'onLoad:b.late']);
    expect(test.manager.list().map((status) => status.id)).toEqual(['a.first', 'b.late']);
    expect(test.manager.get('b.late')).toBeDefined();
    expect(await test.answer('b.late')).toBe('answer from b.late');
  });

  it('[issue 16.4] a folder whose id another folder already has is skipped, naming that folder, and its code never runs', async () => {
    const test = await setUp([{ id: 'a.taken' }]);
    const first = test.statusOf('a.taken')!.folder;
    // The same id in another folder of the same root.
    const copy = join(test.roots.thirdParty, 'a-taken-copy');
    renameSync(writePluginFolder(join(test.roots.thirdParty, '..', 'sources'), { id: 'a.taken', source: source('a.taken', 'the copy') }), copy);

    const status = await test.manager.loadFolder(copy);
    expect(status).toMatchObject({ state: 'skipped', stage: 'duplicate', reason: expect.stringContaining(first) });
    expect(recorded(KEY)).toEqual([]);
    expect(await test.answer('a.taken')).toBe('answer from a.taken');
    expect(test.manager.list()).toHaveLength(2);
  });

  it('[issue 16.4] a folder whose host range excludes this host is skipped with the range, and a switched-off one is listed as off; neither runs code', async () => {
    const test = await setUp();
    const incompatible = test.add({ id: 'c.future' });
    const manifestFile = join(incompatible, '_manifest.json');
    writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), host_application: { min_version: '9.0.0', max_version: '9.1.0' } }));
    const off = test.add({ id: 'd.off' });
    writeFileSync(join(off, 'config.toml'), '[plugin]\nenabled = false\n');

    expect(await test.manager.loadFolder(incompatible)).toMatchObject({ id: 'c.future', state: 'skipped', stage: 'version', reason: expect.stringContaining('9.0.0') });
    expect(await test.manager.loadFolder(off)).toMatchObject({ id: 'd.off', state: 'disabled', stage: 'switch', reason: 'config.toml: [plugin] enabled = false' });
    expect(recorded(KEY)).toEqual([]);
    expect(test.manager.plugins()).toEqual([]);
    expect(test.tools.get('c_future')).toBeUndefined();
    expect(test.manager.list().map((status) => status.state)).toEqual(['skipped', 'disabled']);
  });

  it('[issue 16.4] a folder already listed reloads with its new code instead of being listed twice', async () => {
    const test = await setUp([{ id: 'e.listed' }]);
    const folder = test.statusOf('e.listed')!.folder;
    writeFileSync(join(folder, 'plugin.ts'), source('e.listed', 'the new answer'));

    await expect(test.manager.loadFolder(folder)).resolves.toMatchObject({ state: 'loaded' });
    expect(recorded(KEY)).toEqual(['onUnload:e.listed', 'import:e.listed', 'onLoad:e.listed']);
    expect(await test.answer('e.listed')).toBe('the new answer');
    expect(test.manager.list()).toHaveLength(1);
  });

  it('[issue 16.4] a reload after an update shows the version and name of the manifest read now', async () => {
    const test = await setUp([{ id: 'e.updated' }]);
    const folder = test.statusOf('e.updated')!.folder;
    const manifestFile = join(folder, '_manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, version: '1.1.0', name: 'Updated name' }));

    await expect(test.manager.loadFolder(folder)).resolves.toMatchObject({ state: 'loaded', version: '1.1.0', name: 'Updated name' });
    expect(test.statusOf('e.updated')).toMatchObject({ version: '1.1.0', name: 'Updated name' });
  });

  it('[issue 16.5] a folder refused at start for a broken manifest is discovered again once the manifest is fixed', async () => {
    const test = createTestManager(tempDir());
    const broken = writePluginFolder(test.roots.thirdParty, { id: 'f.fixed', source: source('f.fixed') });
    const manifest = readFileSync(join(broken, '_manifest.json'), 'utf8');
    writeFileSync(join(broken, '_manifest.json'), '{ not json');
    await test.manager.loadAll();
    expect(test.manager.list()).toMatchObject([{ id: undefined, stage: 'manifest' }]);

    writeFileSync(join(broken, '_manifest.json'), manifest);
    await expect(test.manager.loadFolder(broken)).resolves.toMatchObject({ id: 'f.fixed', state: 'loaded' });
    expect(test.manager.list()).toHaveLength(1);
  });

  it('[issue 16.4] a dependent skipped because its dependency was not found loads once the dependency folder is loaded', async () => {
    const test = await setUp([{ id: 'h.user', dependencies: { 'g.base': '^1.0.0' } }]);
    expect(test.statusOf('h.user')).toMatchObject({ state: 'skipped', stage: 'dependencies', reason: expect.stringContaining('g.base') });

    await test.manager.loadFolder(test.add({ id: 'g.base' }));
    expect(recorded(KEY)).toEqual(['import:g.base', 'onLoad:g.base', 'import:h.user', 'onLoad:h.user']);
    expect(test.statusOf('h.user')).toMatchObject({ state: 'loaded' });
  });

  it('[issue 16.4] removePlugin unloads the plugin (onUnload ran, its tool is gone), drops it from list(), and its dependents unload, skipped naming it', async () => {
    const test = await setUp([{ id: 'i.base' }, { id: 'j.user', dependencies: { 'i.base': '^1.0.0' } }, { id: 'k.other' }]);
    expect(test.manager.plugins().map((plugin) => plugin.id)).toEqual(['i.base', 'j.user', 'k.other']);

    await test.manager.removePlugin('i.base');
    expect(recorded(KEY)).toEqual(['onUnload:i.base', 'onUnload:j.user']);
    expect(test.tools.get('i_base')).toBeUndefined();
    expect(test.tools.get('j_user')).toBeUndefined();
    expect(test.manager.list().map((status) => status.id)).toEqual(['j.user', 'k.other']);
    expect(test.statusOf('j.user')).toMatchObject({ state: 'skipped', stage: 'dependencies', reason: expect.stringContaining('依赖插件 i.base 未找到') });
    expect(test.manager.plugins().map((plugin) => plugin.id)).toEqual(['k.other']);
    expect(await test.answer('k.other')).toBe('answer from k.other');
  });

  it('[issue 16.4] removePlugin of an id not listed, and loadFolder of a folder outside every plugin root, are clear errors', async () => {
    const test = await setUp([{ id: 'l.only' }]);
    await expect(test.manager.removePlugin('nope')).rejects.toThrow('PluginManager.removePlugin(): pluginId must be the id of a listed plugin, got nope');
    const outside = writePluginFolder(join(test.roots.thirdParty, '..', 'outside'), { id: 'm.outside', source: source('m.outside') });
    await expect(test.manager.loadFolder(outside)).rejects.toThrow(/PluginManager.loadFolder\(\): folder must be a folder inside a plugin root/);
    expect(recorded(KEY)).toEqual([]);
    expect(test.manager.list()).toHaveLength(1);
  });

  it('[issue 16.5] reloadKeepingPrevious: new code that cannot be imported leaves the running version alone, untouched (no onUnload), and says why', async () => {
    const test = await setUp([{ id: 'n.kept' }]);
    const folder = test.statusOf('n.kept')!.folder;
    writeFileSync(join(folder, 'plugin.ts'), `${source('n.kept', 'the new answer')}\nexport const = ;\n`);

    const outcome = await test.manager.reloadKeepingPrevious('n.kept');
    expect(outcome).toMatchObject({ result: 'kept', status: { state: 'loaded' }, failure: { stage: 'entry', reason: expect.stringContaining(join(folder, 'plugin.ts')) } });
    expect(recorded(KEY)).toEqual([]);
    expect(await test.answer('n.kept')).toBe('answer from n.kept');
  });

  it('[issue 16.5] reloadKeepingPrevious: new code whose onLoad throws is unloaded again and the previous version runs again with its settings', async () => {
    const test = await setUp([{ id: 'o.base' }, { id: 'p.user', dependencies: { 'o.base': '^1.0.0' } }]);
    const folder = test.statusOf('o.base')!.folder;
    writeFileSync(join(folder, 'plugin.ts'), source('o.base', 'the new answer').replace("record('onLoad:o.base');", "record('onLoad:o.base (new)'); throw new Error('new onLoad broken');"));

    const outcome = await test.manager.reloadKeepingPrevious('o.base');
    expect(outcome).toMatchObject({ result: 'kept', status: { state: 'loaded', signatures: ['o.base:tool:o_base'] }, failure: { stage: 'load', reason: 'Error: new onLoad broken' } });
    // Imported before the running version unloads; the dependent was built against the instance
    // that unloaded, so it follows the one running now.
    expect(recorded(KEY)).toEqual(['import:o.base', 'onUnload:o.base', 'onLoad:o.base (new)', 'onLoad:o.base', 'onUnload:p.user', 'import:p.user', 'onLoad:p.user']);
    expect(await test.answer('o.base')).toBe('answer from o.base');
    expect(test.manager.plugins().map((plugin) => plugin.id)).toEqual(['o.base', 'p.user']);

    writeFileSync(join(folder, 'plugin.ts'), source('o.base', 'the fixed answer'));
    await expect(test.manager.reloadKeepingPrevious('o.base')).resolves.toMatchObject({ result: 'reloaded', status: { state: 'loaded' } });
    expect(await test.answer('o.base')).toBe('the fixed answer');
  });

  it('[issue 16.5] reloadKeepingPrevious: a manifest made invalid, or a dependency added that is missing, leaves the running version alone', async () => {
    const test = await setUp([{ id: 'q.stays' }]);
    const folder = test.statusOf('q.stays')!.folder;
    const manifestFile = join(folder, '_manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestFile, '{ "id": ');
    await expect(test.manager.reloadKeepingPrevious('q.stays')).resolves.toMatchObject({ result: 'kept', failure: { stage: 'manifest' } });
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, dependencies: { 'r.absent': '^1.0.0' } }));
    await expect(test.manager.reloadKeepingPrevious('q.stays')).resolves.toMatchObject({ result: 'kept', failure: { stage: 'dependencies', reason: expect.stringContaining('r.absent') } });
    expect(recorded(KEY)).toEqual([]);
    expect(await test.answer('q.stays')).toBe('answer from q.stays');
  });
});
