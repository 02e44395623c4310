import { describe, expect, it } from 'vitest';
import { PromptError } from '../../src/llm/errors/prompt-error.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { PromptManager, renderTemplate } from '../../src/llm/prompt-manager.js';
import { createTestBus } from '../support/bus.js';

describe('renderTemplate', () => {
  it('fills {name} placeholders, keeps {{ }} as braces, renders objects as JSON', () => {
    expect(renderTemplate('t', 'Hi {name}, {{literal}} {data}', { name: '月璃', data: { a: 1 } }, false)).toBe('Hi 月璃, {literal} {"a":1}');
  });

  it('renders a missing value as empty text, or refuses it in strict mode naming the placeholder', () => {
    expect(renderTemplate('t', '[{missing}]', {}, false)).toBe('[]');
    expect(() => renderTemplate('my:tpl', '[{missing}]', {}, true)).toThrow(PromptError);
    expect(() => renderTemplate('my:tpl', '[{missing}]', {}, true)).toThrow(/prompt template "my:tpl": no value for \{missing\}/);
  });
});

describe('renderTemplate, with placeholder names that Object.prototype has (issue 13, item 9)', () => {
  const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

  it.each(inherited)('renders {%s} as a missing value: empty text when not strict', (key) => {
    expect(renderTemplate('t', `[{${key}}]`, { name: '月璃' }, false)).toBe('[]');
  });

  it.each(inherited)('refuses {%s} as a missing value in strict mode', (key) => {
    expect(() => renderTemplate('my:tpl', `[{${key}}]`, {}, true)).toThrow(`prompt template "my:tpl": no value for {${key}}`);
  });

  it('uses such a name when the values hold it as their own property', () => {
    expect(renderTemplate('t', '{constructor} {toString}', { constructor: 'own', toString: 2 }, true)).toBe('own 2');
    expect(renderTemplate('t', '{__proto__}', JSON.parse('{"__proto__": "own"}') as Record<string, unknown>, true)).toBe('own');
  });
});

describe('PromptManager', () => {
  it('publishes on_prompt_build with name, template, values, policies and strict, and renders what handlers left', async () => {
    const { bus } = createTestBus();
    const prompts = new PromptManager({ bus });
    prompts.register('neo_default_chatter:system', 'You are {nickname}. {extra_constraints}');
    prompts.register('other:system', 'Other {extra_constraints}');
    const seen: unknown[] = [];
    bus.subscribe('on_prompt_build', (_name, params) => {
      seen.push({ name: params.name, template: params.template, strict: params.strict, policies: params.policies });
      if (!params.name.startsWith('neo_default_chatter:')) return [EventDecision.PASS, params];
      params.values['extra_constraints'] = '不要提及内部实现细节';
      return [EventDecision.SUCCESS, params];
    }, { weight: 200 });
    expect(await prompts.build('neo_default_chatter:system', { nickname: '月璃' })).toBe('You are 月璃. 不要提及内部实现细节');
    expect(await prompts.build('other:system', {})).toBe('Other ');
    expect(seen[0]).toEqual({ name: 'neo_default_chatter:system', template: 'You are {nickname}. {extra_constraints}', strict: false, policies: {} });
  });

  it('lets a handler replace the template', async () => {
    const { bus } = createTestBus();
    const prompts = new PromptManager({ bus });
    prompts.register('p', 'old {x}');
    bus.subscribe('on_prompt_build', (_name, params) => [EventDecision.STOP, { ...params, template: 'new {x}' }]);
    expect(await prompts.build('p', { x: 1 })).toBe('new 1');
  });

  it('refuses an unknown template and a second registration of a name; a disposer frees the name', async () => {
    const { bus } = createTestBus();
    const prompts = new PromptManager({ bus });
    const dispose = prompts.register('p', 'x');
    expect(() => prompts.register('p', 'y')).toThrow(/is registered already/);
    await expect(prompts.build('nope', {})).rejects.toThrow(/"nope": is not registered \(known: p\)/);
    dispose();
    expect(prompts.has('p')).toBe(false);
    prompts.register('p', 'y');
  });
});
