import { describe, expect, it } from 'vitest';
import { ToolDeclarationError } from '../../src/kernel/errors/tool-declaration-error.js';
import { DEFAULT_TOOL_TIMEOUT_MS, readToolDeclarations, tool } from '../../src/tools/tool-decorator.js';

describe('@tool', () => {
  it('[T-07] declares name, description, parameters and side effect on the method that implements it', () => {
    class Hello {
      @tool({
        name: 'hello_yueli',
        description: '当用户明确要求演示插件工具时调用，返回一句问候。',
        parameters: { type: 'object', properties: { name: { type: 'string', description: '称呼' } }, required: [], additionalProperties: false },
        sideEffect: 'readonly',
      })
      async helloYueli(): Promise<string> {
        return 'hi';
      }
    }
    expect(readToolDeclarations(Hello)).toEqual([
      {
        name: 'hello_yueli',
        description: '当用户明确要求演示插件工具时调用，返回一句问候。',
        parameters: { type: 'object', properties: { name: { type: 'string', description: '称呼' } }, required: [], additionalProperties: false },
        sideEffect: 'readonly',
        capabilities: [],
        timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
        methodName: 'helloYueli',
      },
    ]);
  });

  it('fills defaults (readonly, no capabilities, 10 s) and lists tools sorted by name, subclass first on a clash', () => {
    class Base {
      @tool({ name: 'zeta', description: 'z' })
      async zeta(): Promise<void> {}
      @tool({ name: 'alpha', description: 'base alpha' })
      async alpha(): Promise<void> {}
    }
    class Derived extends Base {
      @tool({ name: 'alpha', description: 'derived alpha', sideEffect: 'reversible', capabilities: ['forward_message'], timeoutMs: 500 })
      async alphaAgain(): Promise<void> {}
    }
    const declarations = readToolDeclarations(Derived);
    expect(declarations.map((declaration) => [declaration.name, declaration.description])).toEqual([
      ['alpha', 'derived alpha'],
      ['zeta', 'z'],
    ]);
    expect(declarations[0]).toMatchObject({ sideEffect: 'reversible', capabilities: ['forward_message'], timeoutMs: 500 });
    expect(readToolDeclarations(Base)[1]).toMatchObject({ name: 'zeta', sideEffect: 'readonly', capabilities: [], timeoutMs: 10_000 });
  });

  it('[T-08] refuses a sync body when the class is defined (at import)', () => {
    const define = () => {
      class Sync {
        @tool({ name: 'sync_tool', description: 'Sync.' })
        syncTool(): string {
          return 'no';
        }
      }
      return Sync;
    };
    expect(define).toThrow(ToolDeclarationError);
    expect(define).toThrow(/tool "sync_tool" on Sync: body syncTool\(\) must be an async method/);
  });

  it.each([
    ['a bad name', { name: 'hello world', description: 'd' }, 'name', /1-64 letters/],
    ['an empty description', { name: 'x', description: '  ' }, 'description', /when to use the tool/],
    ['non-object parameters', { name: 'x', description: 'd', parameters: { type: 'array' } }, 'parameters', /type "object"/],
    ['an unknown side effect', { name: 'x', description: 'd', sideEffect: 'dangerous' }, 'sideEffect', /readonly, reversible, irreversible/],
    ['empty capabilities', { name: 'x', description: 'd', capabilities: [''] }, 'capabilities', /non-empty strings/],
    ['a zero timeout', { name: 'x', description: 'd', timeoutMs: 0 }, 'timeoutMs', /positive number/],
  ])('refuses %s, naming the field', (_label, spec, field, message) => {
    let error: unknown;
    try {
      class Bad {
        @tool(spec as never)
        async body(): Promise<void> {}
      }
      void Bad;
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolDeclarationError);
    expect(error).toMatchObject({ field, code: 'MG_TOOL_DECLARATION' });
    expect((error as Error).message).toMatch(message);
  });

  it('refuses the same tool name twice in one class', () => {
    const define = () => {
      class Twice {
        @tool({ name: 'same', description: 'one' })
        async one(): Promise<void> {}
        @tool({ name: 'same', description: 'two' })
        async two(): Promise<void> {}
      }
      return Twice;
    };
    expect(define).toThrow(/tool "same" on Twice: name is declared twice in this class/);
  });
});
