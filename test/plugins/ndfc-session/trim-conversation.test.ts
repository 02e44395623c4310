import { describe, expect, it } from 'vitest';
import { trimConversation } from '../../../src/plugins/built_in/neo_default_chatter/session/conversation-session.js';

describe('trimConversation', () => {
  it('drops the oldest whole turns (never orphaning a tool result) and keeps the system prompt', () => {
    const payloads: { role: string; content: string }[] = [{ role: 'system', content: 'sys' }];
    for (let turn = 0; turn < 5; turn += 1) {
      payloads.push({ role: 'user', content: `u${turn}` }, { role: 'assistant', content: `a${turn}` }, { role: 'tool', content: `t${turn}` });
    }
    const request = { payloads } as never;
    trimConversation(request, 7);
    expect(payloads.map((payload) => payload.content)).toEqual(['sys', 'u3', 'a3', 't3', 'u4', 'a4', 't4']);
  });

  it('keeps a single oversized turn rather than splitting it', () => {
    const payloads = [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }, { role: 'assistant', content: 'a' }, { role: 'tool', content: 't' }];
    trimConversation({ payloads } as never, 1);
    expect(payloads).toHaveLength(4);
  });
});
