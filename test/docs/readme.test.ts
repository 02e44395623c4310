// [issue 19.4] The README is the front door: the two set-up commands, a plugin on one screen
// that is the real, tested example, the guides table made from the site's page list, and links
// that all lead somewhere. The architecture and the departures live in docs/contributing/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReadme } from '../../scripts/docs/check/readme.js';
import { projectRoot } from '../support/temp-dir.js';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');

describe('[issue 19.4] the README', () => {
  it('holds the two set-up commands, the guides table as the page list makes it, and only links that lead somewhere', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toMatch(/^npm test\b/m);
    expect(checkReadme(readme)).toEqual([]);
    expect(checkReadme(readme.replace('docs/guide/models.md', 'docs/guide/modelz.md'))).toEqual([
      expect.objectContaining({ message: expect.stringContaining('out of date') }),
      expect.objectContaining({ message: 'the link docs/guide/modelz.md leads to no file of the repository' }),
    ]);
  });

  it('shows plugins/dice, the example whose test runs with npm test, exactly as it is', () => {
    for (const file of ['plugins/dice/plugin.ts', 'plugins/dice/_manifest.json']) {
      expect(readme, file).toContain(readFileSync(join(projectRoot, file), 'utf8'));
    }
  });

  it('stays a front door: the architecture, the departures and the error table moved to docs/', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(16 * 1024);
    expect(readme).not.toMatch(/^## (Architecture|Error codes)$/m);
    expect(readme).toContain('docs/contributing/architecture.md');
    expect(readme).toContain('docs/contributing/departures.md');
  });
});
