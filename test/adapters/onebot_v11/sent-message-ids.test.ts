import { describe, expect, it } from 'vitest';
import { SentMessageIds } from '../../../src/adapters/onebot_v11/sent-message-ids.js';

describe('SentMessageIds', () => {
  it('forgets the oldest id beyond its limit', () => {
    const ids = new SentMessageIds(2);
    ids.add('1');
    ids.add('2');
    ids.add('3');
    expect([ids.has('1'), ids.has('2'), ids.has('3'), ids.size]).toEqual([false, true, true, 2]);
  });

  it('refreshes an id added again', () => {
    const ids = new SentMessageIds(2);
    ids.add('1');
    ids.add('2');
    ids.add('1');
    ids.add('3');
    expect([ids.has('1'), ids.has('2')]).toEqual([true, false]);
  });
});
