import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { action, chatter, eventHandler, service } from '../../../src/kernel/components/decorators.js';
import { readComponentMetadata } from '../../../src/kernel/components/component-metadata.js';
import { ComponentDeclarationError } from '../../../src/kernel/errors/component-declaration-error.js';
import { EventType } from '../../../src/kernel/event-bus/event-type.js';

function declare(decorate: () => unknown): unknown {
  try {
    decorate();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('component decorators', () => {
  it('record metadata only: nothing is registered anywhere by decorating', () => {
    @service('chat_core', { description: 'Creates conversation sessions.' })
    class ChatCore {}
    expect(readComponentMetadata(ChatCore)).toEqual({ kind: 'service', name: 'chat_core', description: 'Creates conversation sessions.' });
  });

  it('record action descriptions and parameters (JSON Schema or zod), with an empty object by default', () => {
    @action('send_text', {
      description: 'Send a text message to the current chat.',
      parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
    })
    class SendText {}
    @action('wave', { description: 'Wave.', parameters: z.object({ times: z.number() }) })
    class Wave {}
    @action('noop', { description: 'Do nothing.' })
    class Noop {}
    expect(readComponentMetadata(SendText)).toMatchObject({ kind: 'action', name: 'send_text', parameters: { required: ['content'] } });
    expect(readComponentMetadata(Wave)).toMatchObject({ kind: 'action', name: 'wave' });
    expect(readComponentMetadata(Noop)).toMatchObject({ parameters: { type: 'object', properties: {}, required: [] } });
  });

  it('record event handler weight (default 0), timeout and subscriptions, merging duplicate event names', () => {
    @eventHandler({ name: 'audit', subscribe: [EventType.ON_START, 'on_start', 'on_stop'] })
    class Audit {}
    @eventHandler({ name: 'slow', subscribe: ['x'], weight: 200, timeout: 0 })
    class Slow {}
    expect(readComponentMetadata(Audit)).toEqual({ kind: 'event_handler', name: 'audit', weight: 0, subscribe: ['on_start', 'on_stop'], timeout: undefined });
    expect(readComponentMetadata(Slow)).toMatchObject({ weight: 200, timeout: 0 });
  });

  it('record chatter chat types and platforms', () => {
    @chatter('neo_default_chatter', { chatTypes: ['private', 'group'], platforms: ['qq'] })
    class Neo {}
    expect(readComponentMetadata(Neo)).toMatchObject({ kind: 'chatter', chatTypes: ['private', 'group'], platforms: ['qq'] });
  });

  it('do not pass metadata on to subclasses', () => {
    @service('base')
    class Base {}
    class Derived extends Base {}
    expect(readComponentMetadata(Derived)).toBeUndefined();
  });

  describe('bad declarations fail at import with the class, the field and the reason', () => {
    it.each([
      ['an empty service name', () => service('')(class Empty {}), 'name', /name is empty/],
      ['a name with a colon', () => service('a:b')(class Colon {}), 'name', /contains ":"/],
      ['an action without a description', () => action('x', { description: ' ' })(class NoDescription {}), 'description', /non-empty string/],
      [
        'action parameters that are not an object schema',
        () => action('x', { description: 'd', parameters: { type: 'string' } as never })(class BadParameters {}),
        'parameters',
        /must have type "object"/,
      ],
      [
        'required parameters that do not exist',
        () => action('x', { description: 'd', parameters: { type: 'object', properties: {}, required: ['ghost'] } })(class Ghost {}),
        'parameters',
        /required names properties that do not exist: ghost/,
      ],
      ['a handler with no events', () => eventHandler({ name: 'h', subscribe: [] })(class NoEvents {}), 'subscribe', /at least one event/],
      ['a handler with an empty event name', () => eventHandler({ name: 'h', subscribe: [''] })(class EmptyEvent {}), 'subscribe', /not a non-empty event name/],
      ['a non-finite weight', () => eventHandler({ name: 'h', subscribe: ['e'], weight: Infinity })(class Heavy {}), 'weight', /finite number/],
      ['a non-numeric timeout', () => eventHandler({ name: 'h', subscribe: ['e'], timeout: '30' as never })(class Timeout {}), 'timeout', /number of seconds/],
      ['an unknown chat type', () => chatter('c', { chatTypes: ['channel' as never] })(class Channel {}), 'chatTypes', /"channel"/],
    ])('%s', (_label, decorate, field, message) => {
      const error = declare(decorate);
      expect(error).toBeInstanceOf(ComponentDeclarationError);
      expect(error).toMatchObject({ field, code: 'MG_COMPONENT_DECLARATION' });
      expect((error as Error).message).toMatch(message);
    });

    it('a class given two component decorators', () => {
      const error = declare(() => {
        @service('one')
        @action('two', { description: 'd' })
        class Twice {}
        return Twice;
      });
      expect(error).toBeInstanceOf(ComponentDeclarationError);
      expect((error as Error).message).toMatch(/Twice: decorator is already declared as action "two"/);
    });
  });
});
