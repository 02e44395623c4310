import { describe, expect, it } from 'vitest';
import { levelAllows, levelOf } from '../../src/commands/permission-level.js';

const bot = { permissions: { owners: { qq: ['1'] }, admins: { qq: ['2'] }, blocklist: { qq: ['3', '1'] } } };
const message = (senderId: string, chatType: 'private' | 'group' = 'group', senderRole: string | null = 'member') => ({ platform: 'qq', senderId, chatType, senderRole });

describe('levelOf', () => {
  it('reads owners, the blocklist, configured admins and the group role, per platform', () => {
    expect(levelOf(message('1'), bot)).toBe('owner'); // an owner on the blocklist stays an owner
    expect(levelOf(message('3'), bot)).toBe('guest');
    expect(levelOf(message('2'), bot)).toBe('admin');
    expect(levelOf(message('4', 'group', 'admin'), bot)).toBe('admin');
    expect(levelOf(message('4', 'group', 'owner'), bot)).toBe('admin');
    expect(levelOf(message('4', 'private', 'admin'), bot)).toBe('member');
    expect(levelOf({ ...message('1'), platform: 'discord' }, bot)).toBe('member');
  });

  it('orders owner > admin > member > guest', () => {
    expect(levelAllows('owner', 'admin')).toBe(true);
    expect(levelAllows('admin', 'owner')).toBe(false);
    expect(levelAllows('member', 'member')).toBe(true);
    expect(levelAllows('guest', 'member')).toBe(false);
  });
});
