import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

const HELLO = join(projectRoot, 'src/plugins/built_in/hello-yueli');
/** The source copy's config.toml as it stands: a local `npm start` may have written one there. */
const sourceConfigStamp = () => (existsSync(join(HELLO, 'config.toml')) ? statSync(join(HELLO, 'config.toml')).mtimeMs : 'absent');
const context = { streamId: 's1', signal: new AbortController().signal, capabilities: new Set<string>() };

describe('built-in plugin hello-yueli (the copy-me example)', () => {
  const workDir = useProjectTempDir();

  it('[T-14] [T-20] is off by default: first discovery writes its config.toml and reports it switched off', async () => {
    const sourceBefore = sourceConfigStamp();
    const { manager, roots, logs } = createTestManager(workDir(), { builtInFolders: [HELLO] });
    await manager.loadAll();
    const text = readFileSync(join(roots.builtIn, 'hello-yueli', 'config.toml'), 'utf8');
    expect(text).toMatch(/^# 本文件由宿主按插件声明的配置模型自动生成，可以直接编辑。/);
    expect(text).toContain('# 是否启用示例插件；默认关闭，改成 true 后重启生效\nenabled = false');
    expect(text).toContain('# 问候语，会出现在回复开头\ngreeting = "你好"');
    expect(logs('已生成插件配置')).toHaveLength(1);
    expect(logs('工具插件已在自身配置中关闭')).toHaveLength(1);
    expect(manager.plugins()).toEqual([]);
    expect(sourceConfigStamp()).toBe(sourceBefore); // the repository copy is never written
  });

  it('[T-07] [T-15] once switched on, offers one readonly tool that greets with the configured greeting', async () => {
    const dir = workDir();
    const first = createTestManager(dir, { builtInFolders: [HELLO] });
    await first.manager.loadAll();
    const file = join(first.roots.builtIn, 'hello-yueli', 'config.toml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('enabled = false', 'enabled = true').replace('"你好"', '"早上好"'));

    const { manager, tools, logs } = createTestManager(dir, {});
    await manager.loadAll();
    expect(logs('工具插件已加载')[0]).toMatchObject({ id: 'example.hello-yueli', version: '0.1.0' });
    expect(tools.declarations({ capabilities: new Set() }).map((declaration) => declaration.function.name)).toEqual(['hello_yueli']);
    expect(tools.get('hello_yueli')!.definition.sideEffect).toBe('readonly');
    const named = await tools.execute({ toolName: 'hello_yueli', callId: 'c1', arguments: { name: '阿明' } }, context);
    expect(named).toMatchObject({ success: true, observation: '早上好，阿明！' });
    const anonymous = await tools.execute({ toolName: 'hello_yueli', callId: 'c2', arguments: {} }, context);
    expect(anonymous.observation).toBe('早上好！');
  });

  it('[T-11] refuses a name that is not a string or longer than 32 characters, naming the field', async () => {
    const dir = workDir();
    const first = createTestManager(dir, { builtInFolders: [HELLO] });
    await first.manager.loadAll();
    const file = join(first.roots.builtIn, 'hello-yueli', 'config.toml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('enabled = false', 'enabled = true'));
    const { manager, tools } = createTestManager(dir, {});
    await manager.loadAll();
    for (const name of [42, 'x'.repeat(33)]) {
      const result = await tools.execute({ toolName: 'hello_yueli', callId: 'c', arguments: { name } }, context);
      expect(result.success).toBe(false);
      expect(result.errorMessage).toMatch(/参数 name/);
    }
    const unknown = await tools.execute({ toolName: 'hello_yueli', callId: 'c', arguments: { nickname: 'x' } }, context);
    expect(unknown.errorMessage).toMatch(/nickname/);
  });
});
