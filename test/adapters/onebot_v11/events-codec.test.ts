import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../../src/adapters/onebot_v11/codec.js';

/** A v11 event frame around `body` (event/notice.md, event/request.md). */
function frame(postType: 'notice' | 'request', body: Record<string, unknown>): string {
  return JSON.stringify({ time: 1_700_000_000, self_id: 10000, post_type: postType, ...body });
}

const origin = { selfId: '10000', time: 1_700_000_000 };

describe('OneBot v11 notices and requests', () => {
  const notices: [string, Record<string, unknown>, Record<string, unknown>][] = [
    [
      'group_upload',
      { notice_type: 'group_upload', group_id: 30001, user_id: 20001, file: { id: 'f-1', name: 'a.txt', size: 12, busid: 102 } },
      { notice_type: 'group_upload', group_id: '30001', user_id: '20001', file: { id: 'f-1', name: 'a.txt', size: 12, busid: 102 } },
    ],
    ['group_admin', { notice_type: 'group_admin', sub_type: 'set', group_id: 30001, user_id: 20001 }, { notice_type: 'group_admin', sub_type: 'set', group_id: '30001', user_id: '20001' }],
    [
      'group_decrease',
      { notice_type: 'group_decrease', sub_type: 'kick', group_id: 30001, operator_id: 20002, user_id: 20001 },
      { notice_type: 'group_decrease', sub_type: 'kick', group_id: '30001', operator_id: '20002', user_id: '20001' },
    ],
    [
      'group_increase',
      { notice_type: 'group_increase', sub_type: 'approve', group_id: 30001, operator_id: 20002, user_id: 20001 },
      { notice_type: 'group_increase', sub_type: 'approve', group_id: '30001', operator_id: '20002', user_id: '20001' },
    ],
    [
      'group_ban',
      { notice_type: 'group_ban', sub_type: 'ban', group_id: 30001, operator_id: 20002, user_id: 20001, duration: 600 },
      { notice_type: 'group_ban', sub_type: 'ban', group_id: '30001', operator_id: '20002', user_id: '20001', duration: 600 },
    ],
    ['friend_add', { notice_type: 'friend_add', user_id: 20001 }, { notice_type: 'friend_add', user_id: '20001' }],
    [
      'group_recall',
      { notice_type: 'group_recall', group_id: 30001, user_id: 20001, operator_id: 20001, message_id: -2147000001 },
      { notice_type: 'group_recall', group_id: '30001', user_id: '20001', operator_id: '20001', message_id: '-2147000001' },
    ],
    ['friend_recall', { notice_type: 'friend_recall', user_id: 20001, message_id: 77 }, { notice_type: 'friend_recall', user_id: '20001', message_id: '77' }],
    [
      'notify poke',
      { notice_type: 'notify', sub_type: 'poke', group_id: 30001, user_id: 20001, target_id: 10000 },
      { notice_type: 'notify', sub_type: 'poke', group_id: '30001', user_id: '20001', target_id: '10000' },
    ],
    [
      'notify poke in a private chat (no group_id)',
      { notice_type: 'notify', sub_type: 'poke', user_id: 20001, target_id: 10000 },
      { notice_type: 'notify', sub_type: 'poke', group_id: null, user_id: '20001', target_id: '10000' },
    ],
    [
      'notify lucky_king',
      { notice_type: 'notify', sub_type: 'lucky_king', group_id: 30001, user_id: 20001, target_id: 20003 },
      { notice_type: 'notify', sub_type: 'lucky_king', group_id: '30001', user_id: '20001', target_id: '20003' },
    ],
    [
      'notify honor',
      { notice_type: 'notify', sub_type: 'honor', group_id: 30001, honor_type: 'talkative', user_id: 20001 },
      { notice_type: 'notify', sub_type: 'honor', group_id: '30001', honor_type: 'talkative', user_id: '20001' },
    ],
  ];

  it.each(notices)('decodes %s into a typed notice with the account', (_name, body, notice) => {
    expect(decodeFrame(frame('notice', body))).toEqual({ kind: 'notice', ...origin, notice });
  });

  it('decodes friend and group requests, keeping the flag to answer them with', () => {
    expect(decodeFrame(frame('request', { request_type: 'friend', user_id: 20001, comment: 'hi, I am Alice', flag: 'flag-1' }))).toEqual({
      kind: 'request',
      ...origin,
      request: { request_type: 'friend', user_id: '20001', comment: 'hi, I am Alice', flag: 'flag-1' },
    });
    expect(decodeFrame(frame('request', { request_type: 'group', sub_type: 'invite', group_id: 30001, user_id: 20001, comment: '', flag: 'flag-2' }))).toEqual({
      kind: 'request',
      ...origin,
      request: { request_type: 'group', sub_type: 'invite', group_id: '30001', user_id: '20001', comment: '', flag: 'flag-2' },
    });
  });

  it('drops keys outside the v11 fields (implementation extensions)', () => {
    const decoded = decodeFrame(frame('notice', { notice_type: 'friend_add', user_id: 20001, raw_info: [1, 2] }));
    expect(decoded).toEqual({ kind: 'notice', ...origin, notice: { notice_type: 'friend_add', user_id: '20001' } });
  });

  it('refuses a v11 notice or request with a bad field, naming it', () => {
    expect(decodeFrame(frame('notice', { notice_type: 'group_ban', sub_type: 'mute', group_id: 30001, operator_id: 1, user_id: 2, duration: 60 }))).toEqual({
      kind: 'invalid',
      reason: 'notice event: sub_type: must be "ban" or "lift_ban"',
    });
    expect(decodeFrame(frame('notice', { notice_type: 'group_recall', group_id: 30001, user_id: 20001, operator_id: 20001 }))).toEqual({
      kind: 'invalid',
      reason: 'notice event: message_id: is missing',
    });
    expect(decodeFrame(frame('request', { request_type: 'friend', user_id: 20001, comment: 'hi', flag: '' }))).toEqual({
      kind: 'invalid',
      reason: 'request event: flag: must not be empty',
    });
    expect(decodeFrame(JSON.stringify({ time: 1, post_type: 'notice', notice_type: 'friend_add', user_id: 20001 }))).toEqual({
      kind: 'invalid',
      reason: 'notice event: self_id: is missing',
    });
  });
});
