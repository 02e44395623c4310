import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

const context = { streamId: 's1', signal: new AbortController().signal, capabilities: new Set<string>() };

describe('plugins/dice (the third-party example)', () => {
  const workDir = useProjectTempDir();

  it('loads from a plugin root and rolls within the configured limit', async () => {
    const { manager, tools } = createTestManager(workDir(), { builtInFolders: [join(projectRoot, 'plugins/dice')] });
    await manager.loadAll();
    expect(manager.get('example.dice')).toBeDefined();
    const roll = await tools.execute({ toolName: 'roll_dice', callId: 'c1', arguments: { count: 3, sides: 6 } }, context);
    expect(roll.observation).toMatch(/^3d6: [1-6] \+ [1-6] \+ [1-6] = \d+$/);
    const tooMany = await tools.execute({ toolName: 'roll_dice', callId: 'c2', arguments: { count: 11 } }, context);
    expect(tooMany).toMatchObject({ success: false, errorMessage: '最多一次掷 10 个骰子' });
    const bad = await tools.execute({ toolName: 'roll_dice', callId: 'c3', arguments: { sides: 1 } }, context);
    expect(bad.errorMessage).toMatch(/参数 sides/);
  });
});
