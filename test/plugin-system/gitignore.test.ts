import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/temp-dir.js';

function ignored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: projectRoot });
    return true;
  } catch {
    return false;
  }
}

describe('.gitignore', () => {
  it('[T-21] ignores generated plugin config.toml files in both roots, but not the fixtures that need one', () => {
    expect(ignored('plugins/dice/config.toml')).toBe(true);
    expect(ignored('src/plugins/built_in/hello-yueli/config.toml')).toBe(true);
    expect(ignored('test/fixtures/plugin-roots/third-party/broken-config/config.toml')).toBe(false);
    expect(ignored('plugins/dice/plugin.ts')).toBe(false);
  });

  it('ignores what the host writes at run time: config/ and data/', () => {
    expect(ignored('config/features.toml')).toBe(true);
    expect(ignored('data/moonglass.db')).toBe(true);
  });
});
