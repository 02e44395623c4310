import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import { PluginConfigError } from '../../../src/plugin-system/config/plugin-config-error.js';
import { reconcilePluginConfig } from '../../../src/plugin-system/config/reconcile-plugin-config.js';
import { renderPluginConfig } from '../../../src/plugin-system/config/render-plugin-config.js';
import { useTempDir } from '../../support/temp-dir.js';

const GreeterConfig = PluginConfig.extend({
  greeting: z.string().default('你好').describe('问候语，会出现在回复开头'),
  limits: z
    .object({
      per_day: z.number().int().min(0).default(20).describe('每天最多回复几次'),
    })
    .prefault({})
    .describe('频率限制'),
});

const HEADER = '# 本文件由宿主按插件声明的配置模型自动生成，可以直接编辑。\n# 删掉它会在下次启动时重新生成一份默认配置。\n';

describe('reconcilePluginConfig', () => {
  const tempDir = useTempDir();

  function setUp(text?: string) {
    const directory = tempDir();
    const file = join(directory, 'config.toml');
    if (text !== undefined) writeFileSync(file, text);
    const { logger, records } = createMemoryLogger();
    const run = <M extends z.ZodObject>(model: M) => reconcilePluginConfig({ directory, model, pluginId: 'example.greeter', logger });
    const warnings = () => records.filter((record) => record.level === 'warn');
    return { directory, file, records, warnings, run, read: () => readFileSync(file, 'utf8') };
  }

  describe('when there is no config.toml', () => {
    it('[T-13] generates the file from the model: header, [plugin], comments, defaults, and a sub-table', () => {
      const { file, records, run, read } = setUp();
      const result = run(GreeterConfig);
      expect(result).toEqual({
        config: { enabled: true, greeting: '你好', limits: { per_day: 20 } },
        generated: true,
        wroteFile: true,
        usedDefaults: true,
      });
      expect(read()).toBe(
        `${HEADER}\n[plugin]\n# 是否启用本插件；false 时宿主不会加载它\nenabled = true\n# 问候语，会出现在回复开头\ngreeting = "你好"\n\n# 频率限制\n[plugin.limits]\n# 每天最多回复几次\nper_day = 20\n`,
      );
      expect(records).toContainEqual(expect.objectContaining({ level: 'info', msg: '已生成插件配置', plugin: 'example.greeter', file }));
    });

    it('[T-14] generates the switch for a plugin that declares no model of its own', () => {
      const { run, read } = setUp();
      expect(run(PluginConfig).config).toEqual({ enabled: true });
      expect(read()).toBe(`${HEADER}\n[plugin]\n# 是否启用本插件；false 时宿主不会加载它\nenabled = true\n`);
    });

    it('[T-19] runs on the defaults with a warning when the plugin path is not a folder', () => {
      const parent = tempDir();
      const directory = join(parent, 'not-a-folder');
      writeFileSync(directory, 'a file');
      const { logger, records } = createMemoryLogger();
      const result = reconcilePluginConfig({ directory, model: GreeterConfig, pluginId: 'example.greeter', logger });
      expect(result).toEqual({ config: GreeterConfig.parse({}), generated: false, wroteFile: false, usedDefaults: true });
      const warnings = records.filter((record) => record.level === 'warn');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ msg: '插件配置无法写入，按模型默认值运行', plugin: 'example.greeter' });
      expect(String(warnings[0]!['error'])).toMatch(/ENOTDIR/);
      expect(readFileSync(directory, 'utf8')).toBe('a file');
    });


    it('throws PluginConfigError, writing nothing, when a required field has no default', () => {
      const Model = PluginConfig.extend({ endpoint: z.string().describe('服务地址') });
      const { directory, file, run } = setUp();
      let error: unknown;
      try {
        run(Model);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(PluginConfigError);
      expect(error).toMatchObject({ code: 'MG_PLUGIN_CONFIG', pluginId: 'example.greeter', file, field: 'endpoint' });
      expect((error as Error).message).toMatch(/example\.greeter.*config\.toml.*endpoint/s);
      expect(readdirSync(directory)).toEqual([]);
    });
  });

  describe('when config.toml exists', () => {
    it('reads the values a user wrote, and leaves a complete file alone', () => {
      const text = '[plugin]\nenabled = false\ngreeting = "嗨"\n\n[plugin.limits]\nper_day = 3\n';
      const { run, read, warnings } = setUp(text);
      expect(run(GreeterConfig)).toEqual({
        config: { enabled: false, greeting: '嗨', limits: { per_day: 3 } },
        generated: false,
        wroteFile: false,
        usedDefaults: false,
      });
      expect(read()).toBe(text);
      expect(warnings()).toEqual([]);
    });

    it('adds a missing field, with its comment, at the end of its table, before the next table header', () => {
      const text = '[plugin]\nenabled = false\n# 我的笔记\n\n[plugin.limits]\nper_day = 3\n';
      const { file, run, read, records } = setUp(text);
      const result = run(GreeterConfig);
      expect(result).toMatchObject({ config: { enabled: false, greeting: '你好', limits: { per_day: 3 } }, wroteFile: true, usedDefaults: false });
      expect(read()).toBe(
        '[plugin]\nenabled = false\n# 问候语，会出现在回复开头\ngreeting = "你好"\n# 我的笔记\n\n[plugin.limits]\nper_day = 3\n',
      );
      expect(records).toContainEqual(
        expect.objectContaining({ level: 'info', msg: '已为插件配置补上缺少的字段', plugin: 'example.greeter', file, fields: ['greeting'] }),
      );
    });

    it('adds missing fields of a sub-table to that table, and a missing sub-table at the end of the file', () => {
      const Model = GreeterConfig.extend({
        limits: z
          .object({
            per_day: z.number().int().default(20).describe('每天最多回复几次'),
            burst: z.number().int().default(3).describe('连续回复上限'),
          })
          .prefault({}),
        style: z.object({ emoji: z.boolean().default(false).describe('回复里带表情') }).describe('回复风格'),
      });
      const text = '[plugin]\nenabled = true\ngreeting = "嗨"\n\n[plugin.limits]\nper_day = 3 # 少一点\n\n# 结尾注释\n';
      const { run, read } = setUp(text);
      expect(run(Model).config).toEqual({ enabled: true, greeting: '嗨', limits: { per_day: 3, burst: 3 }, style: { emoji: false } });
      expect(read()).toBe(
        '[plugin]\nenabled = true\ngreeting = "嗨"\n\n[plugin.limits]\nper_day = 3 # 少一点\n# 连续回复上限\nburst = 3\n\n# 结尾注释\n' +
          '\n# 回复风格\n[plugin.style]\n# 回复里带表情\nemoji = false\n',
      );
    });

    it('keeps CRLF line endings: the added lines use CRLF too', () => {
      const text = '# 我改过的\r\n[plugin]\r\nenabled = true\r\n\r\n[plugin.limits]\r\nper_day = 3\r\n';
      const { run, read } = setUp(text);
      expect(run(GreeterConfig).wroteFile).toBe(true);
      const after = read();
      expect(after).toBe(
        '# 我改过的\r\n[plugin]\r\nenabled = true\r\n# 问候语，会出现在回复开头\r\ngreeting = "你好"\r\n\r\n[plugin.limits]\r\nper_day = 3\r\n',
      );
      expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    });

    it('terminates a last line that has no line ending before adding after it', () => {
      const { run, read } = setUp('[plugin]\nenabled = true\n[plugin.limits]\nper_day = 1');
      run(GreeterConfig);
      expect(read()).toBe('[plugin]\nenabled = true\n# 问候语，会出现在回复开头\ngreeting = "你好"\n[plugin.limits]\nper_day = 1');
      const { run: runAgain, read: readAgain } = setUp('[plugin]\ngreeting = "嗨"');
      runAgain(GreeterConfig);
      expect(readAgain()).toBe(
        '[plugin]\ngreeting = "嗨"\n# 是否启用本插件；false 时宿主不会加载它\nenabled = true\n\n# 频率限制\n[plugin.limits]\n# 每天最多回复几次\nper_day = 20\n',
      );
    });

    it('is idempotent: a second run changes nothing', () => {
      const { run, read } = setUp('[plugin]\r\nenabled = false\r\n');
      expect(run(GreeterConfig).wroteFile).toBe(true);
      const once = read();
      const second = run(GreeterConfig);
      expect(second).toEqual({ config: { enabled: false, greeting: '你好', limits: { per_day: 20 } }, generated: false, wroteFile: false, usedDefaults: false });
      expect(read()).toBe(once);
    });

    it('does not add an optional field that has no value to write', () => {
      const Model = PluginConfig.extend({ nickname: z.string().optional().describe('昵称') });
      const text = '[plugin]\nenabled = true\n';
      const { run, read } = setUp(text);
      expect(run(Model)).toMatchObject({ config: { enabled: true }, wroteFile: false });
      expect(read()).toBe(text);
    });

    it('does not add an optional sub-table that has no default', () => {
      const Model = PluginConfig.extend({ proxy: z.object({ url: z.string().default('http://127.0.0.1') }).optional() });
      const text = '[plugin]\nenabled = true\n';
      const { run, read } = setUp(text);
      expect(run(Model)).toMatchObject({ config: { enabled: true }, wroteFile: false });
      expect(read()).toBe(text);
    });

    it('keeps keys the model no longer has, untouched, with exactly one warning listing them', () => {
      const text = '[plugin]\nenabled = true\ngreeting = "嗨"\nold_mode = "fast"\n\n[plugin.limits]\nper_day = 3\nper_hour = 1\n';
      const { file, run, read, warnings } = setUp(text);
      expect(run(GreeterConfig)).toMatchObject({ config: { enabled: true, greeting: '嗨', limits: { per_day: 3 } }, wroteFile: false });
      expect(read()).toBe(text);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ plugin: 'example.greeter', file, keys: ['old_mode', 'limits.per_hour'] });
      expect(warnings()[0]!.msg).toBe('插件配置中的 old_mode、limits.per_hour 已没有代码读取，原样保留在文件中');
    });

    it('[T-18] runs a field with a bad value on its default, with a warning naming field, expected and actual', () => {
      const text = '[plugin]\nenabled = true\ngreeting = 42\n\n[plugin.limits]\nper_day = -1\n';
      const { file, run, read, warnings } = setUp(text);
      const result = run(GreeterConfig);
      expect(result).toMatchObject({ config: { enabled: true, greeting: '你好', limits: { per_day: 20 } }, wroteFile: false, usedDefaults: false });
      expect(read()).toBe(text);
      expect(warnings()).toHaveLength(2);
      expect(warnings()[0]).toMatchObject({ msg: '插件配置字段的值非法，该字段按默认值运行', plugin: 'example.greeter', file, field: 'greeting', actual: '42' });
      expect(warnings()[0]!['expected']).toMatch(/expected string/);
      expect(warnings()[1]).toMatchObject({ field: 'limits.per_day', actual: '-1' });
      expect(warnings()[1]!['expected']).toMatch(/>=\s*0/);
    });

    it('runs a sub-table written as a plain value on its default, without adding a second definition', () => {
      const text = '[plugin]\nenabled = true\ngreeting = "嗨"\nlimits = 5\n';
      const { run, read, warnings } = setUp(text);
      expect(run(GreeterConfig)).toMatchObject({ config: { limits: { per_day: 20 } }, wroteFile: false });
      expect(read()).toBe(text);
      expect(warnings()).toEqual([expect.objectContaining({ field: 'limits', actual: '5' })]);
    });

    it('runs on all defaults, with a warning, when the model refuses the values as a whole', () => {
      const Model = PluginConfig.extend({
        min_delay: z.number().default(1).describe('最短延迟（秒）'),
        max_delay: z.number().default(5).describe('最长延迟（秒）'),
      }).refine((config) => config.min_delay <= config.max_delay, { message: 'min_delay must not exceed max_delay', path: ['min_delay'] });
      const text = '[plugin]\nenabled = false\nmin_delay = 9\nmax_delay = 2\n';
      const { run, read, warnings } = setUp(text);
      expect(run(Model)).toEqual({ config: { enabled: true, min_delay: 1, max_delay: 5 }, generated: false, wroteFile: false, usedDefaults: true });
      expect(read()).toBe(text);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ msg: '插件配置未通过配置模型的整体校验，全部按默认值运行', issues: [{ path: 'min_delay', reason: 'min_delay must not exceed max_delay' }] });
    });

    it('[T-18] runs on the defaults when the file is not valid TOML, with one warning, leaving the file unchanged', () => {
      const text = '[plugin\nenabled = = false\n';
      const { file, run, read, warnings } = setUp(text);
      expect(run(GreeterConfig)).toEqual({ config: GreeterConfig.parse({}), generated: false, wroteFile: false, usedDefaults: true });
      expect(read()).toBe(text);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ plugin: 'example.greeter', file, msg: '插件配置文件读不懂，按模型默认值运行，文件保持原样' });
      expect(String(warnings()[0]!['reason'])).toMatch(/line 1/);
    });

    it('runs on the defaults when the file has no [plugin] table, leaving the file unchanged', () => {
      const text = '[plugins]\nenabled = false\n';
      const { run, read, warnings } = setUp(text);
      expect(run(GreeterConfig)).toMatchObject({ config: GreeterConfig.parse({}), wroteFile: false, usedDefaults: true });
      expect(read()).toBe(text);
      expect(warnings()).toEqual([expect.objectContaining({ msg: '插件配置文件没有 [plugin] 表，按模型默认值运行，文件保持原样' })]);
    });

    it('does not add to a [plugin] table that has no header line of its own (an inline table)', () => {
      const text = 'plugin = { enabled = false }\n';
      const { run, read, warnings } = setUp(text);
      expect(run(GreeterConfig)).toMatchObject({ config: { enabled: false, greeting: '你好', limits: { per_day: 20 } }, wroteFile: false });
      expect(read()).toBe(text);
      expect(warnings()).toEqual([]);
    });

    it('is not fooled by brackets inside multi-line strings and arrays', () => {
      const Model = PluginConfig.extend({
        prompt: z.string().default('').describe('提示词'),
        matrix: z.array(z.array(z.number())).default([]),
        greeting: z.string().default('你好'),
      });
      const text = '[plugin]\nprompt = """\n[plugin.fake]\nnot = "a table"\n"""\nmatrix = [\n  [1],\n  [2]\n]\n# 尾注\n';
      const { run, read } = setUp(text);
      expect(run(Model).config).toMatchObject({ prompt: '[plugin.fake]\nnot = "a table"\n', matrix: [[1], [2]], greeting: '你好' });
      expect(read()).toBe(`${text.replace('\n]\n', '\n]\n# 是否启用本插件；false 时宿主不会加载它\nenabled = true\ngreeting = "你好"\n')}`);
    });

    it('throws PluginConfigError when a required field without default is missing from the file', () => {
      const Model = PluginConfig.extend({ endpoint: z.string() });
      const text = '[plugin]\nenabled = true\n';
      const { file, run, read } = setUp(text);
      expect(() => run(Model)).toThrow(PluginConfigError);
      expect(() => run(Model)).toThrow(expect.objectContaining({ field: 'endpoint', file, pluginId: 'example.greeter' }));
      expect(read()).toBe(text);
    });

    it('throws PluginConfigError when a required field without default has a bad value', () => {
      const Model = PluginConfig.extend({ endpoint: z.url() });
      const { run } = setUp('[plugin]\nendpoint = "not a url"\n');
      expect(() => run(Model)).toThrow(/field "endpoint" has an invalid value/);
    });

    it('uses the same renderer for generation as for a later regeneration', () => {
      const { run, read } = setUp();
      run(GreeterConfig);
      expect(read()).toBe(renderPluginConfig(GreeterConfig, GreeterConfig.parse({})));
    });
  });
});
