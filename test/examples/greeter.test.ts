import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

describe('examples/greeter (a first plugin, through the plugin manager)', () => {
  const workDir = useProjectTempDir();

  it('loads and greets', async () => {
    const { manager, tools, roots } = createTestManager(workDir(), { builtInFolders: [join(projectRoot, 'examples/greeter')] });
    await manager.loadAll();
    const result = await tools.execute(
      { toolName: 'greet', callId: 'c1', arguments: { name: '月璃' } },
      { streamId: 's', signal: new AbortController().signal, capabilities: new Set() },
    );
    expect(result.observation).toBe('你好，月璃！');
    expect(readFileSync(join(roots.builtIn, 'greeter', 'config.toml'), 'utf8')).toContain('# 问候语，会出现在回复开头\ngreeting = "你好"');
  });
});
