import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/temp-dir.js';

describe('systemClock in a quiet process', () => {
  it('runs a zero-delay timer at once even when the loop has nothing else to do (regression: unref’d immediates stalled)', () => {
    const script = `
      import { systemClock } from './src/kernel/time/clock.ts';
      setInterval(() => {}, 1 << 30);
      setTimeout(() => { console.log('late'); process.exit(1); }, 1000);
      systemClock.setTimeout(() => { console.log('ran'); process.exit(0); }, 0);
    `;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8' });
    expect(output.trim()).toBe('ran');
  });
});
