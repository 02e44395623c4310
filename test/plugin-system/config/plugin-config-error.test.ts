import { describe, expect, it } from 'vitest';
import { MoonglassError } from '../../../src/kernel/errors/moonglass-error.js';
import { PluginConfigError } from '../../../src/plugin-system/config/plugin-config-error.js';

describe('PluginConfigError', () => {
  it('carries the plugin, the file, the field and the reason, and names them all in its message', () => {
    const cause = new Error('zod said no');
    const error = new PluginConfigError('example.greeter', '/plugins/greeter/config.toml', 'limits.per_day', 'has no usable default', { cause });
    expect(error).toBeInstanceOf(MoonglassError);
    expect(MoonglassError.hasCode(error, 'MG_PLUGIN_CONFIG')).toBe(true);
    expect(error).toMatchObject({
      name: 'PluginConfigError',
      pluginId: 'example.greeter',
      file: '/plugins/greeter/config.toml',
      field: 'limits.per_day',
      reason: 'has no usable default',
      cause,
    });
    expect(error.message).toContain('example.greeter');
    expect(error.message).toContain('/plugins/greeter/config.toml');
    expect(error.message).toContain('"limits.per_day" has no usable default');
  });

  it('speaks of the model as a whole when no field is named', () => {
    expect(new PluginConfigError('p', 'f', '', 'rejects its own defaults').message).toContain('the config model rejects its own defaults');
  });
});
