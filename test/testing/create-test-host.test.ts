import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestHost } from 'moonglass/testing';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

/** A tool plugin folder whose manifest declares no host_application range. */
function writePlugin(parent: string): string {
  const folder = join(parent, 'no-range');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, '_manifest.json'),
    JSON.stringify({ manifest_version: 1, id: 'example.no-range', plugin_type: 'tool', name: 'no range', version: '1.0.0', description: 'x' }),
  );
  writeFileSync(join(folder, 'plugin.ts'), "import { ToolPlugin } from 'moonglass';\nexport class NoRange extends ToolPlugin {}\n");
  return folder;
}

describe('moonglass/testing: createTestHost (issue 15, item 15)', () => {
  const workDir = useProjectTempDir();

  it('[issue 15.15] loads your plugins as third-party plugins, as npm start does: a manifest without a host_application range is skipped with the reason', async () => {
    const folder = writePlugin(workDir());
    const test = await createTestHost({ plugins: [folder] });
    try {
      const status = test.host.plugins.list().find((entry) => entry.folder.endsWith('no-range'))!;
      expect(status.state).not.toBe('loaded');
      expect(String(status.reason)).toMatch(/host_application/);
      expect(test.host.plugins.get('example.no-range')).toBeUndefined();
    } finally {
      await test.stop();
    }
    const asBuiltIn = await createTestHost({ plugins: [folder], pluginsAsBuiltIn: true });
    try {
      expect(asBuiltIn.host.plugins.get('example.no-range')).toBeDefined(); // built-ins ship with the host and may leave the range out
    } finally {
      await asBuiltIn.stop();
    }
  });

  it('[issue 15.15] takes partial script replies and partial nested appConfig values', async () => {
    const test = await createTestHost({ script: [{ message: '' }, { toolCalls: [{ id: 'c1', name: 'send_text', args: { content: '好' } }] }], appConfig: { media: { images_enabled: false } } });
    try {
      expect(test.host.config.media.images_enabled).toBe(false);
      await test.adapter.send('在吗');
      await test.settle(15_000);
      expect(test.model.calls).toHaveLength(1);
    } finally {
      await test.stop();
    }
  });

  it('[issue 15.15] refuses pluginConfigs for a folder that is neither a built-in plugin nor one of yours, naming it', async () => {
    await expect(createTestHost({ pluginConfigs: { neo_default_chater: '[plugin]\n' } })).rejects.toThrow(/neo_default_chater/);
  });

  it('[issue 15.15] npm test finds the tests beside a plugin (plugins/<name>/*.test.ts)', () => {
    const listed = execFileSync(process.execPath, [join(projectRoot, 'node_modules/vitest/vitest.mjs'), 'list', '--filesOnly', 'plugins/'], { cwd: projectRoot, encoding: 'utf8' });
    expect(listed).toContain(join('plugins', 'dice', 'dice.test.ts'));
  });
});
