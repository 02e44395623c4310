import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorLocation, formatLocation } from '../../src/kernel/errors/error-location.js';
import { useProjectTempDir } from '../support/temp-dir.js';

describe(errorLocation, () => {
  const tempDir = useProjectTempDir();

  it('[issue 15] finds the line of a throw at import in a plugin file, through the error that wraps it', async () => {
    const folder = tempDir();
    writeFileSync(join(folder, 'plugin.js'), "const ready = true;\nif (ready) {\n  throw new Error('boom');\n}\n");
    const thrown = await import(`${pathToFileURL(join(folder, 'plugin.js')).href}?attempt=1`).then(() => undefined, (error: unknown) => error);
    const wrapped = new Error(`importing ${join(folder, 'plugin.js')} failed: Error: boom`, { cause: thrown });
    expect(errorLocation(wrapped, folder)).toEqual({ file: join(folder, 'plugin.js'), line: 3, column: 9 });
  });

  it('skips frames in the plugin folder\'s own node_modules, and names nothing when no frame is the plugin\'s', () => {
    const folder = tempDir();
    const error = new Error('bad');
    error.stack = `Error: bad\n    at lib (${folder}/node_modules/lib/index.js:10:3)\n    at <anonymous> (${folder}/components.ts:12:5)`;
    expect(errorLocation(error, folder)).toEqual({ file: `${folder}/components.ts`, line: 12, column: 5 });
    const elsewhere = new Error('bad');
    elsewhere.stack = 'Error: bad\n    at host (/somewhere/else/plugin-manager.ts:1:1)';
    expect(errorLocation(elsewhere, folder)).toBeUndefined();
  });

  it('for a module that cannot be found, names the importing file and the line of its import', () => {
    const folder = tempDir();
    mkdirSync(join(folder, 'lib'));
    writeFileSync(join(folder, 'plugin.ts'), "import { ToolPlugin } from 'moonglass';\nimport { a } from './lib/a.js';\nimport { b } from 'left-pad-x';\n");
    const module = Object.assign(new Error(`Cannot find module '${folder}/lib/a.js' imported from ${folder}/plugin.ts`), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(formatLocation(errorLocation(module, folder)!)).toBe(`${folder}/plugin.ts:2`);
    const pkg = Object.assign(new Error(`Cannot find package 'left-pad-x' imported from ${folder}/plugin.ts`), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(formatLocation(errorLocation(pkg, folder)!)).toBe(`${folder}/plugin.ts:3`);
  });
});
