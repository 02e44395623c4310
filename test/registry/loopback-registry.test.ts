import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { useProjectTempDir } from '../support/temp-dir.js';
import { type LoopbackRegistry, startLoopbackRegistry } from '../support/verdaccio.js';

const run = promisify(execFile);

describe('the loopback npm registry the package tests use (Verdaccio)', () => {
  const workDir = useProjectTempDir();
  const registries: LoopbackRegistry[] = [];
  afterEach(async () => {
    for (const registry of registries.splice(0)) await registry.close();
  });

  it('takes a published package and serves it to npm view and npm search, with nothing upstream', async () => {
    const registry = await startLoopbackRegistry();
    registries.push(registry);
    const dir = join(workDir(), 'pkg');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'moonglass-plugin-smoke', version: '1.0.0', keywords: ['moonglass-plugin'], description: 'smoke' }));
    await registry.publish(dir);
    const view = await run('npm', ['view', 'moonglass-plugin-smoke', 'version', '--userconfig', registry.npmrc, '--loglevel=warn']);
    expect(view.stdout.trim()).toBe('1.0.0');
    const search = await run('npm', ['search', 'moonglass-plugin', '--json', '--userconfig', registry.npmrc, '--loglevel=warn']);
    expect((JSON.parse(search.stdout) as { name: string }[]).map((entry) => entry.name)).toContain('moonglass-plugin-smoke');
    // Not on the registry: an error, not a fetch from npmjs.org.
    await expect(run('npm', ['view', 'left-pad', 'version', '--userconfig', registry.npmrc, '--loglevel=warn'])).rejects.toThrow(/E404|404/);
  });
});
