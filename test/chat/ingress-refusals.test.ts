import { describe, expect, it } from 'vitest';
import { createChatHarness } from '../support/chat.js';
import { useTempDir } from '../support/temp-dir.js';

// Issue 13 item 10: an adapter that hands over a malformed envelope per message must not
// write a warning per message.
describe('Ingress', () => {
  const tempDir = useTempDir();

  describe('when one adapter keeps handing over malformed envelopes', () => {
    it('warns about the first three in full, then once a minute with the count, and other adapters stay in full', async () => {
      const { ingress, warnings, clock } = createChatHarness(tempDir());
      const malformed = { platform: 'qq', message_id: 1, chat_type: 'group', sender: { id: '1' }, content: 'no group' } as never;
      for (let index = 0; index < 1_000; index += 1) {
        expect(await ingress.receive(malformed, 'broken:adapter:peer')).toMatchObject({ status: 'invalid' });
      }
      await ingress.receive(malformed, 'other:adapter:peer');
      expect(warnings().map((warning) => [warning.msg, warning['adapter']])).toEqual([
        ...Array.from({ length: 3 }, () => ['refused an inbound envelope', 'broken:adapter:peer']),
        ['refused an inbound envelope', 'other:adapter:peer'],
      ]);

      await clock.advance(60_000);
      const summary = warnings().slice(4);
      expect(summary).toHaveLength(1);
      expect(summary[0]).toMatchObject({ adapter: 'broken:adapter:peer', repeated: 997, reason: expect.stringContaining('group') });
      expect(summary[0]!.msg).toBe('repeated 997 more times in the last 60 s (counted, not logged one by one); the last: refused an inbound envelope');
    });
  });
});
