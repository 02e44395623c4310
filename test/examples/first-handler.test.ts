import { describe, expect, it } from 'vitest';
import { main } from '../../examples/first-handler.js';

describe('examples/first-handler.ts (the event-bus guide’s first example)', () => {
  it('greets through a service and lets a weighted handler change the result', async () => {
    expect(await main()).toBe('你好，月璃！');
  });
});
