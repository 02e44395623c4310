import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestHost } from 'moonglass/testing';
import { projectRoot } from '../support/temp-dir.js';

describe('examples/audit-storage (the event-bus guide’s core-token example)', () => {
  it('[issue 14] is the code both event-bus guides show; it sees every inbound message the ingress stores, and its unload undoes the wrap', async () => {
    for (const guide of ['docs/guide/events.md', 'docs/en/guide/events.md']) {
      expect(readFileSync(join(projectRoot, guide), 'utf8'), guide).toContain('<<< @/../examples/audit-storage/plugin.ts');
    }
    const test = await createTestHost({ plugins: [join(projectRoot, 'examples/audit-storage')] });
    try {
      const plugin = test.host.plugins.get('example.audit-storage') as unknown as { stored: string[] };
      await test.adapter.send('你好');
      await test.settle(15_000);
      expect(plugin.stored).toEqual(['你好']);
      expect(test.logs.some((record) => record['msg'] === 'stored an inbound message' && record['plugin'] === 'example.audit-storage')).toBe(true);

      // Switched off the way a bot owner does it: its config.toml, then a reload.
      const file = join((await test.host.plugins.configOf('example.audit-storage')).folder, 'config.toml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('enabled = true', 'enabled = false'));
      expect((await test.host.plugins.reload('example.audit-storage')).state).not.toBe('loaded');
      await test.adapter.send('再见');
      await test.settle(15_000);
      expect(plugin.stored).toEqual(['你好']);
      expect(test.adapter.texts()).toHaveLength(2); // the bot answered both, wrapped or not
    } finally {
      await test.stop();
    }
  });
});
