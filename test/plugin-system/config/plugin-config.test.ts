import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { describeSchema } from '../../../src/kernel/config/zod-introspection.js';
import { PLUGIN_CONFIG_FILE_NAME, PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';

describe('PluginConfig', () => {
  it('[T-14] carries the switch: enabled, default true, described for the person editing the file', () => {
    expect(PluginConfig.parse({})).toEqual({ enabled: true });
    expect(describeSchema(PluginConfig.shape.enabled)).toBe('是否启用本插件；false 时宿主不会加载它');
    expect(PLUGIN_CONFIG_FILE_NAME).toBe('config.toml');
  });

  it('[T-14] is extended by plugin models, which keep the switch', () => {
    const MyConfig = PluginConfig.extend({ greeting: z.string().default('你好').describe('问候语，会出现在回复开头') });
    expect(MyConfig.parse({})).toEqual({ enabled: true, greeting: '你好' });
    expect(MyConfig.parse({ enabled: false }).enabled).toBe(false);
  });

  it('refuses a switch that is not a boolean', () => {
    expect(PluginConfig.safeParse({ enabled: 'no' }).success).toBe(false);
  });
});
