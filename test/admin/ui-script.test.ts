import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/temp-dir.js';

describe('the web console page script', () => {
  it('[admin] parses (a syntax error would leave the page blank, seen only in a browser)', () => {
    expect(() => execFileSync(process.execPath, ['--check', join(projectRoot, 'src/admin/ui/app.js')], { stdio: 'pipe' })).not.toThrow();
  });
});
