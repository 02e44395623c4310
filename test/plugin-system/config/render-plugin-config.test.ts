import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import { renderPluginConfig } from '../../../src/plugin-system/config/render-plugin-config.js';

const HEADER = ['# 本文件由宿主按插件声明的配置模型自动生成，可以直接编辑。', '# 删掉它会在下次启动时重新生成一份默认配置。'];

describe('renderPluginConfig', () => {
  it('[T-13] writes the header, then [plugin] with each description as the comment above its default', () => {
    const MyConfig = PluginConfig.extend({ greeting: z.string().default('你好').describe('问候语，会出现在回复开头') });
    expect(renderPluginConfig(MyConfig, MyConfig.parse({}))).toBe(
      [
        ...HEADER,
        '',
        '[plugin]',
        '# 是否启用本插件；false 时宿主不会加载它',
        'enabled = true',
        '# 问候语，会出现在回复开头',
        'greeting = "你好"',
        '',
      ].join('\n'),
    );
  });

  it('[T-14] renders a bare PluginConfig: a plugin without a model still gets its switch', () => {
    expect(renderPluginConfig(PluginConfig, PluginConfig.parse({}))).toBe(
      [...HEADER, '', '[plugin]', '# 是否启用本插件；false 时宿主不会加载它', 'enabled = true', ''].join('\n'),
    );
  });

  it('[T-13] puts nested objects in [plugin.<name>] sub-tables after the other fields, recursively', () => {
    const Model = PluginConfig.extend({
      limits: z
        .object({
          per_day: z.number().int().default(20).describe('每天最多回复几次'),
          window: z.object({ minutes: z.number().default(5) }).prefault({}).describe('统计窗口'),
        })
        .prefault({})
        .describe('频率限制'),
      greeting: z.string().default('你好'),
      'odd key': z.array(z.string()).default(['a', 'b']).describe('多行说明\n第二行'),
    });
    const values = Model.parse({});
    const text = renderPluginConfig(Model, values);
    expect(text).toBe(
      [
        ...HEADER,
        '',
        '[plugin]',
        '# 是否启用本插件；false 时宿主不会加载它',
        'enabled = true',
        'greeting = "你好"',
        '# 多行说明',
        '# 第二行',
        '"odd key" = ["a", "b"]',
        '',
        '# 频率限制',
        '[plugin.limits]',
        '# 每天最多回复几次',
        'per_day = 20',
        '',
        '# 统计窗口',
        '[plugin.limits.window]',
        'minutes = 5',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(JSON.stringify(parse(text)))).toEqual({ plugin: values });
  });

  it('writes a field whose value has no TOML form commented out', () => {
    const Model = PluginConfig.extend({
      nickname: z.string().optional().describe('昵称'),
      avatar: z.string().nullable().default(null),
    });
    const text = renderPluginConfig(Model, Model.parse({}));
    expect(text).toContain('# 昵称\n# nickname = (未设置)\n# avatar = (未设置)\n');
    expect(JSON.parse(JSON.stringify(parse(text)))).toEqual({ plugin: { enabled: true } });
  });
});
