import { describe, expect, it } from 'vitest';
import { toolDefinitionsFromDecorators } from '../../src/tools/tool-definition.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import { tool } from '../../src/tools/tool-decorator.js';
import { ToolExecutionResult } from '../../src/tools/tool-execution-result.js';
import type { ToolInvocation } from '../../src/tools/tool-invocation.js';

const context: ToolContext = { streamId: 's1', signal: new AbortController().signal, capabilities: new Set() };

class Greeter {
  readonly greeting: string;
  readonly calls: Array<[ToolInvocation, ToolContext]> = [];

  constructor(greeting: string) {
    this.greeting = greeting;
  }

  @tool({
    name: 'hello_yueli',
    description: '当用户明确要求演示插件工具时调用，返回一句问候。',
    parameters: { type: 'object', properties: { name: { type: 'string', description: '称呼' } }, required: [], additionalProperties: false },
  })
  async helloYueli(invocation: ToolInvocation, toolContext: ToolContext): Promise<ToolExecutionResult> {
    this.calls.push([invocation, toolContext]);
    return ToolExecutionResult.ok(invocation.toolName, `${this.greeting}，${String(invocation.arguments['name'] ?? '朋友')}`);
  }

  @tool({ name: 'forward_reader', description: '读取合并转发时调用。', sideEffect: 'reversible', capabilities: ['forward_message'], timeoutMs: 500 })
  async forwardReader(invocation: ToolInvocation): Promise<ToolExecutionResult> {
    return ToolExecutionResult.ok(invocation.toolName, 'forward');
  }
}

describe('toolDefinitionsFromDecorators', () => {
  it('[T-07] turns each @tool method into a definition carrying its declaration, sorted by name', () => {
    const definitions = toolDefinitionsFromDecorators(new Greeter('你好'));
    expect(definitions.map(({ execute: _execute, ...rest }) => rest)).toEqual([
      {
        name: 'forward_reader',
        description: '读取合并转发时调用。',
        parameters: { type: 'object', properties: {}, required: [] },
        sideEffect: 'reversible',
        capabilities: ['forward_message'],
        timeoutMs: 500,
      },
      {
        name: 'hello_yueli',
        description: '当用户明确要求演示插件工具时调用，返回一句问候。',
        parameters: { type: 'object', properties: { name: { type: 'string', description: '称呼' } }, required: [], additionalProperties: false },
        sideEffect: 'readonly',
        capabilities: [],
        timeoutMs: 10_000,
      },
    ]);
  });

  it('[T-07] executes the method on the instance with (invocation, context), even when detached from the definition', async () => {
    const greeter = new Greeter('早上好');
    const hello = toolDefinitionsFromDecorators(greeter).find((definition) => definition.name === 'hello_yueli')!;
    const invocation: ToolInvocation = { toolName: 'hello_yueli', callId: 'c1', arguments: { name: '月璃' } };
    const { execute } = hello;
    const result = await execute(invocation, context);
    expect(result.observation).toBe('早上好，月璃');
    expect(greeter.calls).toEqual([[invocation, context]]);
  });

  it('keeps working after a plugin adjusts a definition with a spread', async () => {
    const [, hello] = toolDefinitionsFromDecorators(new Greeter('嗨'));
    const adjusted = { ...hello!, timeoutMs: 30_000 };
    expect((await adjusted.execute({ toolName: 'hello_yueli', callId: '', arguments: {} }, context)).observation).toBe('嗨，朋友');
  });

  it('runs a subclass override of a decorated method', async () => {
    class LoudGreeter extends Greeter {
      override async helloYueli(invocation: ToolInvocation): Promise<ToolExecutionResult> {
        return ToolExecutionResult.ok(invocation.toolName, 'HELLO');
      }
    }
    const hello = toolDefinitionsFromDecorators(new LoudGreeter('x')).find((definition) => definition.name === 'hello_yueli')!;
    expect((await hello.execute({ toolName: 'hello_yueli', callId: '', arguments: {} }, context)).observation).toBe('HELLO');
  });

  it('returns no definitions for an instance without @tool methods', () => {
    expect(toolDefinitionsFromDecorators(new (class Plain {})())).toEqual([]);
    expect(toolDefinitionsFromDecorators({})).toEqual([]);
  });
});
