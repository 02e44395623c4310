import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

const GOOD = join(projectRoot, 'test/fixtures/plugin-roots/third-party/good-echo');

describe('plugin folders that reach outside their root', () => {
  const workDir = useProjectTempDir();

  it('[security] refuses a folder that is a link to elsewhere and a plugin whose entry is a link out of its folder; the others load', async () => {
    const dir = workDir();
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    cpSync(GOOD, join(outside, 'elsewhere'), { recursive: true });
    const setup = createTestManager(dir, { thirdParty: ['good-echo'] });
    symlinkSync(join(outside, 'elsewhere'), join(setup.roots.thirdParty, 'linked-folder'));
    const sneaky = join(setup.roots.thirdParty, 'sneaky-entry');
    mkdirSync(sneaky);
    cpSync(join(GOOD, '_manifest.json'), join(sneaky, '_manifest.json'));
    symlinkSync(join(outside, 'elsewhere', 'plugin.ts'), join(sneaky, 'plugin.ts'));

    await setup.manager.loadAll();
    const byFolder = (name: string) => setup.manager.list().find((status) => status.folder === join(setup.roots.thirdParty, name))!;
    expect(byFolder('good-echo')).toMatchObject({ state: 'loaded' });
    expect(byFolder('linked-folder')).toMatchObject({ state: 'skipped', stage: 'location', reason: expect.stringMatching(/is a link to .*outside the plugin root/) });
    expect(byFolder('sneaky-entry')).toMatchObject({ state: 'skipped', stage: 'location', reason: expect.stringMatching(/^plugin\.ts is a link to .*outside the plugin's folder/) });
    expect(setup.logs('插件目录指向插件根目录之外，已拒绝加载')).toHaveLength(2);
  });
});
