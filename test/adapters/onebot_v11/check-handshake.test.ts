import { describe, expect, it } from 'vitest';
import { checkHandshake } from '../../../src/adapters/onebot_v11/check-handshake.js';

const rules = { path: '/onebot/v11/ws', accessToken: 'secret' };
const good = { authorization: 'Bearer secret', 'x-self-id': '10000', 'x-client-role': 'Universal' };

describe('checkHandshake', () => {
  it('accepts the configured path with a Bearer token and reads X-Self-ID', () => {
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: good }, rules)).toEqual({ accepted: true, selfId: '10000' });
  });

  it('ignores a trailing slash and accepts the token as ?access_token= or a go-cqhttp "Token" header', () => {
    const { authorization: _dropped, ...noAuth } = good;
    expect(checkHandshake({ url: '/onebot/v11/ws/?access_token=secret', headers: noAuth }, rules).accepted).toBe(true);
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: { ...good, authorization: 'Token secret' } }, rules).accepted).toBe(true);
  });

  it('refuses another path with 404', () => {
    expect(checkHandshake({ url: '/ws', headers: good }, rules)).toMatchObject({ accepted: false, status: 404 });
  });

  it('refuses a missing or wrong token with 401', () => {
    const { authorization: _dropped, ...noAuth } = good;
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: noAuth }, rules)).toMatchObject({ accepted: false, status: 401, reason: expect.stringContaining('missing') });
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: { ...good, authorization: 'Bearer nope' } }, rules)).toMatchObject({
      accepted: false,
      status: 401,
      reason: expect.stringContaining('does not match'),
    });
  });

  it('needs no token when access_token is empty', () => {
    const { authorization: _dropped, ...noAuth } = good;
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: noAuth }, { ...rules, accessToken: '' }).accepted).toBe(true);
  });

  it('refuses a missing X-Self-ID with 400', () => {
    const { 'x-self-id': _dropped, ...noSelf } = good;
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: noSelf }, rules)).toMatchObject({ accepted: false, status: 400, reason: expect.stringContaining('X-Self-ID') });
  });

  it('refuses API and Event roles with 400, telling to use Universal; a missing role counts as Universal', () => {
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: { ...good, 'x-client-role': 'API' } }, rules)).toMatchObject({
      accepted: false,
      status: 400,
      reason: expect.stringContaining('Universal'),
    });
    const { 'x-client-role': _dropped, ...noRole } = good;
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: noRole }, rules).accepted).toBe(true);
  });

  it('checks the token before X-Self-ID, so an unauthenticated client learns nothing else', () => {
    expect(checkHandshake({ url: '/onebot/v11/ws', headers: {} }, rules)).toMatchObject({ status: 401 });
  });
});
