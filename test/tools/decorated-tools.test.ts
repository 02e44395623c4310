import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import { tool } from '../../src/tools/tool-decorator.js';
import { toolDefinitionsFromDecorators } from '../../src/tools/tool-definition.js';
import { ToolExecutionResult } from '../../src/tools/tool-execution-result.js';
import type { ToolInvocation } from '../../src/tools/tool-invocation.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

const SearchArguments = z.object({
  query: z.string().min(1).max(20).describe('要找的词'),
  limit: z.int().min(1).max(5).default(3).describe('最多返回几条'),
});

/** A plugin-like class: declaration and body on one method, state on the instance. */
class NotesPlugin {
  readonly id = 'notes';
  readonly #notes = ['月璃的笔记：晴', '月璃的笔记：雨', '购物清单'];

  @tool({
    name: 'hello_yueli',
    description: '当用户明确要求演示插件工具时调用，返回一句问候。',
    parameters: { type: 'object', properties: { name: { type: 'string', description: '称呼', maxLength: 10 } }, required: [], additionalProperties: false },
    sideEffect: 'readonly',
  })
  async helloYueli(invocation: ToolInvocation): Promise<ToolExecutionResult> {
    return ToolExecutionResult.ok(invocation.toolName, `你好，${String(invocation.arguments['name'] ?? '朋友')}`);
  }

  @tool({ name: 'search_notes', description: '用户问起自己记过的笔记时调用。', parameters: SearchArguments })
  async searchNotes(invocation: ToolInvocation, context: ToolContext): Promise<ToolExecutionResult> {
    const { query, limit } = SearchArguments.parse(invocation.arguments);
    const hits = this.#notes.filter((note) => note.includes(query)).slice(0, limit);
    if (hits.length === 0) return ToolExecutionResult.fail(invocation.toolName, `没有包含「${query}」的笔记`);
    return ToolExecutionResult.ok(invocation.toolName, hits.join('\n'), { stream: context.streamId, limit });
  }

  @tool({ name: 'delete_notes', description: '用户要求清空笔记时调用。', sideEffect: 'irreversible' })
  async deleteNotes(invocation: ToolInvocation): Promise<ToolExecutionResult> {
    return ToolExecutionResult.ok(invocation.toolName, 'deleted');
  }
}

function setUp() {
  const { logger } = createMemoryLogger();
  const registry = new ToolRegistry({ clock: new ManualClock(), logger });
  const plugin = new NotesPlugin();
  const refused: string[] = [];
  for (const definition of toolDefinitionsFromDecorators(plugin)) {
    try {
      registry.register(plugin.id, definition);
    } catch (error) {
      refused.push((error as Error).message);
    }
  }
  const context: ToolContext = { streamId: 'group-42', signal: new AbortController().signal, capabilities: new Set() };
  return { registry, refused, context };
}

describe('@tool methods through the registry', () => {
  it('[T-07] registers a plugin’s decorated methods and declares them with their parameters', () => {
    const { registry, refused } = setUp();
    expect(refused).toEqual(['工具 delete_notes 具有不可逆副作用，不允许注册']);
    expect(registry.declarations({ capabilities: new Set() })).toEqual([
      {
        type: 'function',
        function: {
          name: 'hello_yueli',
          description: '当用户明确要求演示插件工具时调用，返回一句问候。',
          parameters: { type: 'object', properties: { name: { type: 'string', description: '称呼', maxLength: 10 } }, required: [], additionalProperties: false },
        },
      },
      {
        type: 'function',
        function: {
          name: 'search_notes',
          description: '用户问起自己记过的笔记时调用。',
          parameters: {
            type: 'object',
            properties: {
              query: { type: 'string', minLength: 1, maxLength: 20, description: '要找的词' },
              limit: { type: 'integer', minimum: 1, maximum: 5, default: 3, description: '最多返回几条' },
            },
            required: ['query'],
            additionalProperties: false, // issue 15.8: a zod object refuses unknown keys, and says so
          },
        },
      },
    ]);
  });

  it('[T-07] executes a JSON Schema tool on the plugin instance, rejecting bad arguments first', async () => {
    const { registry, context } = setUp();
    expect(await registry.execute({ toolName: 'hello_yueli', callId: 'c1', arguments: { name: '月璃' } }, context)).toMatchObject({
      success: true,
      observation: '你好，月璃',
    });
    expect((await registry.execute({ toolName: 'hello_yueli', callId: 'c2', arguments: { name: 'x'.repeat(11) } }, context)).errorMessage).toBe(
      '参数 name：长度不能超过 10 个字符，收到 11 个',
    );
  });

  it('[T-07] executes a zod tool with parsed arguments and its own failures', async () => {
    const { registry, context } = setUp();
    const found = await registry.execute({ toolName: 'search_notes', callId: 'c3', arguments: { query: '月璃' } }, context);
    expect(found).toMatchObject({ success: true, observation: '月璃的笔记：晴\n月璃的笔记：雨', metadata: { stream: 'group-42', limit: 3 } });
    const missing = await registry.execute({ toolName: 'search_notes', callId: 'c4', arguments: { query: '雪' } }, context);
    expect(missing).toMatchObject({ success: false, errorMessage: '没有包含「雪」的笔记' });
    const bad = await registry.execute({ toolName: 'search_notes', callId: 'c5', arguments: { query: '月', limit: 9 } }, context);
    expect(bad).toMatchObject({ success: false, errorMessage: '参数 limit：不能大于 5', metadata: { failureKind: 'invalid_arguments' } });
  });
});
