import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/adapters/onebot_v11/config.js';
import { secretFields } from '../../../src/plugin-system/config/secret.js';

describe('onebot_v11 configSchema', () => {
  it('gives a working reverse setup for an empty file', () => {
    expect(configSchema.parse({})).toEqual({
      mode: 'reverse',
      access_token: '',
      action_timeout_ms: 30000,
      platform: 'qq',
      reverse: { host: '127.0.0.1', port: 8095, path: '/onebot/v11/ws' },
      forward: { url: 'ws://127.0.0.1:3001', reconnect_interval_ms: 3000 },
      groups: { allow: [], deny: [] },
    });
  });

  it('keeps group ids as strings even when written as numbers', () => {
    expect(configSchema.parse({ groups: { allow: [123, '456'] } }).groups.allow).toEqual(['123', '456']);
  });

  it('refuses a reconnect interval under 10 ms and a forward url that is not ws://', () => {
    expect(configSchema.safeParse({ forward: { reconnect_interval_ms: 5 } }).success).toBe(false);
    expect(configSchema.safeParse({ forward: { url: 'http://x' } }).success).toBe(false);
    expect(configSchema.safeParse({ forward: { url: 'ws://' } }).success).toBe(false);
    expect(configSchema.safeParse({ forward: { url: 'wss://napcat.example:3001/ws' } }).success).toBe(true);
  });

  it('marks access_token as a secret (and forward.endpoints, which holds each endpoint\'s own access_token)', () => {
    expect(secretFields(configSchema)).toEqual(new Set(['access_token', 'forward.endpoints']));
  });
});
