import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { OneBotAdapter } from '../../../src/adapters/onebot_v11/onebot-adapter.js';
import { createFakeContext } from './fake-adapter-context.js';

// Issue 13 item 10: a peer that sends junk on every frame must not write a warning per frame.
describe('OneBotAdapter', () => {
  describe('when a connection sends unusable frames over and over', () => {
    it('warns about the first three in full and then only counts, per connection', () => {
      const fake = createFakeContext({ mode: 'reverse', reverse: { port: 0 } });
      const adapter = new OneBotAdapter(fake.context);
      const bad = new EventEmitter() as unknown as WebSocket;
      const good = new EventEmitter() as unknown as WebSocket;
      adapter.opened(bad, '10000', 'QQ 10000 connected from 127.0.0.1:1');
      adapter.opened(good, '10001', 'QQ 10001 connected from 127.0.0.1:2');
      const junk = `{"post_type": "message", ${'x'.repeat(500)}`;
      for (let index = 0; index < 1_000; index += 1) adapter.frame(bad, junk);
      adapter.frame(good, '[]');

      const skipped = fake.logs.filter((line) => line.level === 'warn' && line.msg.startsWith('OneBot frame skipped'));
      expect(skipped.map((line) => line.msg)).toEqual([
        expect.stringContaining('frame: not JSON'),
        expect.stringContaining('frame: not JSON'),
        expect.stringContaining('frame: not JSON'),
        'OneBot frame skipped: frame: must be a JSON object, got an array',
      ]);
      expect(skipped.slice(0, 3).every((line) => line['frame'] === junk.slice(0, 200))).toBe(true);
    });
  });
});
