import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import { renderPluginConfig } from '../../../src/plugin-system/config/render-plugin-config.js';
import { savePluginEnabled } from '../../../src/plugin-system/config/save-plugin-enabled.js';
import { secret } from '../../../src/plugin-system/config/secret.js';
import { useTempDir } from '../../support/temp-dir.js';

const Model = PluginConfig.extend({
  api_key: secret(z.string().default('')).describe('API key'),
  daily_limit: z.number().int().max(100).default(10).describe('Requests per day'),
});

describe('savePluginEnabled', () => {
  const tempDir = useTempDir();

  function setUp(text?: string) {
    const directory = tempDir();
    const file = join(directory, 'config.toml');
    if (text !== undefined) writeFileSync(file, text);
    return { directory, read: () => readFileSync(file, 'utf8') };
  }

  it('changes only the enabled line, keeping its comment and every other byte, invalid values included', () => {
    const text = '# mine\r\n[plugin]\r\nenabled = true # the switch\r\napi_key = 98765432123\r\ndaily_limit = 500\r\n\r\n[other]\r\nenabled = true\r\n';
    const { directory, read } = setUp(text);
    expect(savePluginEnabled(directory, Model, false)).toEqual({ ok: true });
    expect(read()).toBe(text.replace('enabled = true # the switch', 'enabled = false # the switch'));
  });

  it('rewrites a non-boolean switch and a quoted key', () => {
    const { directory, read } = setUp('[plugin]\n"enabled" = "no"\n');
    expect(savePluginEnabled(directory, Model, true)).toEqual({ ok: true });
    expect(read()).toBe('[plugin]\n"enabled" = true\n');
  });

  it('is not fooled by an enabled line inside a multi-line string', () => {
    const text = '[plugin]\nprompt = """\nenabled = true\n"""\nenabled = true\n';
    const { directory, read } = setUp(text);
    expect(savePluginEnabled(directory, Model, false)).toEqual({ ok: true });
    expect(read()).toBe('[plugin]\nprompt = """\nenabled = true\n"""\nenabled = false\n');
  });

  it('adds the switch, with its comment, to a [plugin] table without one, and a [plugin] table to a file without one', () => {
    const withTable = setUp('[plugin]\napi_key = 1\n\n[plugin.sub]\nx = 1\n');
    expect(savePluginEnabled(withTable.directory, Model, false)).toEqual({ ok: true });
    expect(withTable.read()).toBe('[plugin]\napi_key = 1\n# 是否启用本插件；false 时宿主不会加载它\nenabled = false\n\n[plugin.sub]\nx = 1\n');
    const withoutTable = setUp('[other]\nx = 1\n');
    expect(savePluginEnabled(withoutTable.directory, Model, false)).toEqual({ ok: true });
    expect(withoutTable.read()).toBe('[other]\nx = 1\n\n[plugin]\n# 是否启用本插件；false 时宿主不会加载它\nenabled = false\n');
  });

  it('writes the defaults with the switch set when there is no file', () => {
    const { directory, read } = setUp();
    expect(savePluginEnabled(directory, Model, false)).toEqual({ ok: true });
    expect(read()).toBe(renderPluginConfig(Model, { enabled: false, api_key: '', daily_limit: 10 }));
  });

  it('leaves the file alone when the switch cannot be changed in place, or the file is not TOML, and says so without quoting it', () => {
    const inline = 'plugin = { enabled = true, api_key = "sk-live-0badc0ffee" }\n';
    const first = setUp(inline);
    const refused = savePluginEnabled(first.directory, Model, false);
    expect(refused).toEqual({ ok: false, errors: [{ field: 'enabled', reason: expect.stringMatching(/set enabled = false by hand/) }] });
    expect(first.read()).toBe(inline);
    const broken = '[plugin]\napi_key = "sk-live-0badc0ffee\n';
    const second = setUp(broken);
    const unreadable = savePluginEnabled(second.directory, Model, false);
    expect(unreadable).toEqual({ ok: false, errors: [{ field: '', reason: expect.stringMatching(/not valid TOML at line 2/) }] });
    expect(JSON.stringify([refused, unreadable])).not.toContain('sk-live-0badc0ffee');
    expect(second.read()).toBe(broken);
  });
});
