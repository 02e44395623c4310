import { describe, expect, it } from 'vitest';
import { COMPONENT_KINDS } from '../../../src/kernel/signature/component-kind.js';
import { formatSignature } from '../../../src/kernel/signature/format-signature.js';
import { isSignature, parseSignature } from '../../../src/kernel/signature/parse-signature.js';
import { SignatureError } from '../../../src/kernel/errors/signature-error.js';

describe('parseSignature', () => {
  it('splits a signature into plugin id, kind and name', () => {
    expect(parseSignature('neo_default_chatter:service:chat_core')).toEqual({
      pluginId: 'neo_default_chatter',
      kind: 'service',
      name: 'chat_core',
    });
    expect(parseSignature('example.hello-yueli:tool:hello_yueli')).toMatchObject({ pluginId: 'example.hello-yueli' });
  });

  it('accepts exactly the seven kinds', () => {
    expect(COMPONENT_KINDS).toEqual(['service', 'action', 'tool', 'event_handler', 'chatter', 'adapter', 'command']);
    for (const kind of COMPONENT_KINDS) expect(parseSignature(`p:${kind}:n`).kind).toBe(kind);
  });

  it.each([
    ['p:service', 'signature', /has 2 part\(s\)/],
    ['a:service:b:c', 'signature', /has 4 part\(s\)/],
    [':service:x', 'plugin_id', /plugin_id is empty/],
    ['p::x', 'kind', /kind is empty/],
    ['p:services:x', 'kind', /kind "services" is not one of service, action, tool, event_handler, chatter, adapter/],
    ['p:service:', 'name', /name is empty/],
    ['my plugin:service:x', 'plugin_id', /plugin_id "my plugin" may only contain/],
    ['p:service:chat core', 'name', /name "chat core" may only contain/],
  ])('rejects %j, naming the %s part', (signature, part, message) => {
    let error: unknown;
    try {
      parseSignature(signature);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SignatureError);
    expect(error).toMatchObject({ part, signature, code: 'MG_SIGNATURE_INVALID' });
    expect((error as Error).message).toMatch(message);
  });

  it('rejects a non-string with a SignatureError', () => {
    expect(() => parseSignature(42)).toThrow(/must be a string, got number/);
    expect(isSignature(undefined)).toBe(false);
    expect(isSignature('a:chatter:b')).toBe(true);
  });
});

describe('formatSignature', () => {
  it('joins valid parts and round-trips through parseSignature', () => {
    const signature = formatSignature({ pluginId: 'neo_default_chatter', kind: 'event_handler', name: 'fetch_unreads_default' });
    expect(signature).toBe('neo_default_chatter:event_handler:fetch_unreads_default');
    expect(parseSignature(signature)).toEqual({ pluginId: 'neo_default_chatter', kind: 'event_handler', name: 'fetch_unreads_default' });
  });

  it('rejects parts that would not parse back, naming the part', () => {
    expect(() => formatSignature({ pluginId: 'a:b', kind: 'service', name: 'x' })).toThrow(/plugin_id "a:b" contains ":"/);
    expect(() => formatSignature({ pluginId: 'a', kind: 'widget' as never, name: 'x' })).toThrow(/kind "widget"/);
    expect(() => formatSignature({ pluginId: 'a', kind: 'service', name: '' })).toThrow(/name is empty/);
  });
});
