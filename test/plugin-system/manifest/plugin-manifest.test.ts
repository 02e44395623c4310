import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../../src/plugin-system/errors/manifest-error.js';
import { checkHostCompatibility } from '../../../src/plugin-system/manifest/host-compatibility.js';
import { compareVersions, type PluginManifest } from '../../../src/plugin-system/manifest/plugin-manifest.js';
import { readPluginManifest } from '../../../src/plugin-system/manifest/read-plugin-manifest.js';
import { useTempDir } from '../../support/temp-dir.js';

const VALID = {
  manifest_version: 1,
  id: 'example.hello-yueli',
  plugin_type: 'tool',
  name: 'Hello-YueLi',
  version: '0.1.0',
  description: '一句话说明这个插件是干什么的',
};

describe('readPluginManifest', () => {
  const tempDir = useTempDir();

  function folderWith(content: unknown, raw = false): string {
    const folder = join(tempDir(), 'my-plugin');
    mkdirSync(folder);
    writeFileSync(join(folder, '_manifest.json'), raw ? String(content) : JSON.stringify(content));
    return folder;
  }

  function problems(folder: string): ManifestError {
    try {
      readPluginManifest(folder);
    } catch (error) {
      if (ManifestError.isInstance(error)) return error as ManifestError;
      throw error;
    }
    throw new Error('expected a ManifestError');
  }

  it('[T-04] accepts the six required fields and keeps unknown keys', () => {
    const manifest = readPluginManifest(folderWith({ ...VALID, author: { name: 'me' } }));
    expect(manifest).toMatchObject(VALID);
    expect((manifest as Record<string, unknown>)['author']).toEqual({ name: 'me' });
    expect(Object.isFrozen(manifest)).toBe(true);
  });

  it.each(['manifest_version', 'id', 'plugin_type', 'name', 'version', 'description'])('[T-04] refuses a manifest without %s, naming the folder and the field', (field) => {
    const content: Record<string, unknown> = { ...VALID };
    delete content[field];
    const folder = folderWith(content);
    const error = problems(folder);
    expect(error.folder).toBe(folder);
    expect(error.issues).toEqual([{ field, reason: '清单缺少必填字段 (required field is missing)' }]);
    expect(error.message).toContain(folder);
    expect(error.message).toContain(field);
  });

  it.each([
    [2, /manifest_version must be exactly 1/],
    ['1', /manifest_version must be exactly 1/],
    [true, /manifest_version must be exactly 1/],
  ])('[T-04] refuses manifest_version %j', (version, message) => {
    const error = problems(folderWith({ ...VALID, manifest_version: version }));
    expect(error.issues[0]!.field).toBe('manifest_version');
    expect(error.message).toMatch(message);
  });

  it.each([
    ['plugin_type', 'widget', /plugin_type 不是合法类型/],
    ['id', '   ', /must not be empty/],
    ['id', 'has:colon', /contains ":"/],
    ['name', 42, /must be a string/],
  ])('refuses %s = %j with the reason', (field, value, message) => {
    const error = problems(folderWith({ ...VALID, [field]: value }));
    expect(error.issues[0]!.field).toBe(field);
    expect(error.issues[0]!.reason).toMatch(message);
  });

  describe('when the id would not name a folder of its own (issue 13, item 9)', () => {
    it.each(['.', '..', '...'])('refuses id %j, which would point at another folder', (id) => {
      const error = problems(folderWith({ ...VALID, id }));
      expect(error.code).toBe('MG_PLUGIN_MANIFEST');
      expect(error.issues).toEqual([{ field: 'id', reason: expect.stringContaining('only dots') }]);
      expect(error.message).toMatch(/- id: /);
    });

    it.each(['.hidden', 'trailing.'])('refuses id %j, which starts or ends with a dot', (id) => {
      expect(problems(folderWith({ ...VALID, id })).issues).toEqual([{ field: 'id', reason: expect.stringContaining('must not start or end with "."') }]);
    });

    it.each(['con', 'NUL', 'com1', 'lpt9.plugin', 'aux.x'])('refuses id %j, a device name Windows reserves', (id) => {
      expect(problems(folderWith({ ...VALID, id })).issues).toEqual([{ field: 'id', reason: expect.stringContaining('Windows reserves') }]);
    });

    it('refuses an id longer than 128 characters', () => {
      expect(problems(folderWith({ ...VALID, id: 'a'.repeat(129) })).issues).toEqual([{ field: 'id', reason: expect.stringContaining('at most 128 characters, got 129') }]);
    });

    it.each(['a..b', 'console', 'com10', 'my.plugin', 'a'.repeat(128)])('accepts id %j', (id) => {
      expect(readPluginManifest(folderWith({ ...VALID, id })).id).toBe(id);
    });
  });

  it('refuses invalid JSON, a non-object and a missing file, naming the file', () => {
    expect(problems(folderWith('{ "id": ', true)).message).toMatch(/_manifest\.json:\n {2}- \(file\): is not valid JSON/);
    expect(problems(folderWith('[1, 2]', true)).issues).toEqual([{ field: '', reason: 'must be a JSON object' }]);
    const empty = join(tempDir(), 'empty');
    mkdirSync(empty);
    expect(problems(empty).issues).toEqual([{ field: '', reason: 'is missing' }]);
  });

  it.each(['v1.2.3', '1.2', '01.2.3', '1.2.3rc1', '1.2.3+build', '1.2.-3', ' 1.2.3'])(
    '[T-26] refuses host_application version %j (strict x.y.z only)',
    (version) => {
      const error = problems(folderWith({ ...VALID, host_application: { min_version: version, max_version: '9.9.9' } }));
      expect(error.issues).toEqual([{ field: 'host_application.min_version', reason: expect.stringMatching(/x\.y\.z/) }]);
    },
  );

  it('[T-26] refuses min_version above max_version, and a range missing one bound', () => {
    expect(problems(folderWith({ ...VALID, host_application: { min_version: '1.0.0', max_version: '0.9.9' } })).message).toMatch(
      /min_version 高于 max_version/,
    );
    expect(problems(folderWith({ ...VALID, host_application: { min_version: '1.0.0' } })).issues[0]!.field).toBe(
      'host_application.max_version',
    );
  });
});

describe('checkHostCompatibility', () => {
  const manifest = (range?: { min_version: string; max_version: string }): PluginManifest =>
    ({ ...VALID, plugin_type: 'tool', ...(range === undefined ? {} : { host_application: range }) }) as PluginManifest;

  it('compares versions as integers, not strings', () => {
    expect(compareVersions('1.2.10', '1.2.9')).toBe(1);
    expect(compareVersions('0.10.0', '0.9.99')).toBe(1);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
  });

  it('[T-27] treats the range as closed', () => {
    expect(checkHostCompatibility(manifest({ min_version: '0.1.0', max_version: '0.1.4' }), '0.1.0', false).verdict).toBe('compatible');
    expect(checkHostCompatibility(manifest({ min_version: '0.1.0', max_version: '0.1.4' }), '0.1.4', false).verdict).toBe('compatible');
  });

  it('[T-27] skips a host below min_version, or with major.minor above max_version, with the versions in the reason', () => {
    const below = checkHostCompatibility(manifest({ min_version: '0.2.0', max_version: '0.3.0' }), '0.1.9', false);
    expect(below).toEqual({ verdict: 'incompatible', reason: expect.stringContaining('当前宿主 0.1.9，要求 min_version=0.2.0，max_version=0.3.0') });
    expect(checkHostCompatibility(manifest({ min_version: '0.1.0', max_version: '0.1.9' }), '0.2.0', false).verdict).toBe('incompatible');
    expect(checkHostCompatibility(manifest({ min_version: '0.1.0', max_version: '0.9.9' }), '1.0.0', false).verdict).toBe('incompatible');
  });

  it('[T-27] loads only a patch above max_version (same major.minor) in compatibility mode', () => {
    const result = checkHostCompatibility(manifest({ min_version: '0.1.0', max_version: '0.1.2' }), '0.1.7', false);
    expect(result.verdict).toBe('patch_above_max');
  });

  it('[T-26] lets built-ins omit the range, but not third-party plugins', () => {
    expect(checkHostCompatibility(manifest(), '0.1.0', true).verdict).toBe('compatible');
    expect(checkHostCompatibility(manifest(), '0.1.0', false)).toEqual({
      verdict: 'incompatible',
      reason: expect.stringContaining('第三方插件缺少 host_application'),
    });
  });
});
