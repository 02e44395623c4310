import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';

const timeline = () => ((globalThis as Record<string, unknown>)['__fixtureTimeline'] ??= []) as string[];

describe('the plugin switch: phase 2 reads the spellings a person writes (issue 15, item 1)', () => {
  const workDir = useProjectTempDir();

  async function loadWith(enabled: string) {
    const { manager, roots, status } = createTestManager(workDir(), { thirdParty: ['good-echo'] });
    writeFileSync(join(roots.thirdParty, 'good-echo', 'config.toml'), `[plugin]\nenabled = ${enabled}\nprefix = "echo: "\n`);
    timeline().length = 0;
    await manager.loadAll();
    return { manager, status: status('good-echo')!, ran: timeline().includes('onLoad:good-echo') };
  }

  for (const spelling of ['"no"', '"off"', '"false"', '"0"', '0', '"No"', '" OFF "', '"n"', '"f"']) {
    it(`[T-17] [issue 15.1] enabled = ${spelling} switches the plugin off after its import (phase 1 let it through), and onLoad never runs`, async () => {
      const { manager, status, ran } = await loadWith(spelling);
      expect(ran).toBe(false);
      expect(manager.get('fixture.good-echo')).toBeUndefined();
      expect(status.state).not.toBe('loaded');
    });
  }

  for (const spelling of ['"yes"', '"on"', '"true"', '"1"', '1', '"Y"']) {
    it(`[T-17] [issue 15.1] enabled = ${spelling} keeps it on`, async () => {
      const { status, ran } = await loadWith(spelling);
      expect(ran).toBe(true);
      expect(status.state).toBe('loaded');
    });
  }

  it('[T-17] [T-18] [issue 15.1] a value that means neither is refused as before: the field runs on its default (on), with a warning naming it', async () => {
    const { status, ran } = await loadWith('"maybe"');
    expect(ran).toBe(true);
    expect(status.state).toBe('loaded');
  });
});
