import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { InvalidArgumentError } from '../../src/kernel/errors/invalid-argument-error.js';
import { MoonglassError } from '../../src/kernel/errors/moonglass-error.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { flushMicrotasks, ManualClock } from '../../src/kernel/time/manual-clock.js';
import { ToolRegistrationError } from '../../src/tools/errors/tool-registration-error.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import type { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolExecutionResult } from '../../src/tools/tool-execution-result.js';
import type { ToolInvocation } from '../../src/tools/tool-invocation.js';
import { ToolRegistry, type ToolRegistryOptions } from '../../src/tools/tool-registry.js';

function createTestRegistry(options: Partial<ToolRegistryOptions> = {}) {
  const clock = new ManualClock();
  const { logger, records } = createMemoryLogger();
  const registry = new ToolRegistry({ clock, logger, ...options });
  const warnings = () => records.filter((record) => record.level === 'warn');
  return { registry, clock, records, warnings };
}

function definition(name: string, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `在需要 ${name} 时调用。`,
    parameters: { type: 'object', properties: {}, required: [] },
    sideEffect: 'readonly',
    capabilities: [],
    timeoutMs: 1_000,
    execute: async (invocation) => ToolExecutionResult.ok(invocation.toolName, `${name} ok`),
    ...overrides,
  };
}

function streamContext(capabilities: readonly string[] = [], signal: AbortSignal = new AbortController().signal): ToolContext {
  return { streamId: 'stream-1', signal, capabilities: new Set(capabilities) };
}

function call(toolName: string, args: Record<string, unknown> = {}): ToolInvocation {
  return { toolName, callId: 'call-1', arguments: args };
}

const hang = () => new Promise<never>(() => undefined);

describe('ToolRegistry', () => {
  describe('constructor', () => {
    it('refuses an observation cap below 32 characters', () => {
      expect(() => createTestRegistry({ observationMaxChars: 10 })).toThrow(InvalidArgumentError);
      expect(() => createTestRegistry({ observationMaxChars: 40.5 })).toThrow(/observationMaxChars must be an integer >= 32/);
    });
  });

  describe('.register', () => {
    it('[T-10] refuses an irreversible tool with the seed message and MG_TOOL_REGISTRATION', () => {
      const { registry } = createTestRegistry();
      const register = () => registry.register('demo', definition('delete_all', { sideEffect: 'irreversible' }));
      expect(register).toThrow(ToolRegistrationError);
      expect(register).toThrow('工具 delete_all 具有不可逆副作用，不允许注册');
      try {
        register();
      } catch (error) {
        expect(MoonglassError.hasCode(error, 'MG_TOOL_REGISTRATION')).toBe(true);
        expect(error).toMatchObject({ toolName: 'delete_all', owner: 'demo', existingOwner: undefined });
      }
      expect(registry.get('delete_all')).toBeUndefined();
    });

    it('refuses a duplicate name, naming both owners, and keeps the first', () => {
      const { registry } = createTestRegistry();
      registry.register('first_plugin', definition('search'));
      const register = () => registry.register('second_plugin', definition('search'));
      expect(register).toThrow('工具 search 已由插件 first_plugin 注册，插件 second_plugin 不能再注册同名工具');
      expect(register).toThrow(expect.objectContaining({ owner: 'second_plugin', existingOwner: 'first_plugin' }) as Error);
      expect(registry.get('search')?.owner).toBe('first_plugin');
    });

    it('refuses a parameters schema that cannot be compiled, naming the tool and keeping the cause', () => {
      const { registry } = createTestRegistry();
      expect(() => registry.register('demo', definition('when_tool', { parameters: z.object({ at: z.date() }) }))).toThrow(
        /^工具 when_tool 的参数 schema 无法编译：Date cannot be represented/,
      );
      const conditional = definition('if_tool', { parameters: { type: 'object', properties: { a: { type: 'string' } }, if: { required: ['a'] } } });
      expect(() => registry.register('demo', conditional)).toThrow(expect.objectContaining({ toolName: 'if_tool', cause: expect.any(Error) }) as Error);
      expect(registry.list()).toEqual([]);
    });

    it('refuses a definition with a bad side effect, timeout, capability list, body or owner', () => {
      const { registry } = createTestRegistry();
      expect(() => registry.register('demo', definition('t', { sideEffect: 'sometimes' as never }))).toThrow(/工具 t 的 sideEffect 必须是/);
      expect(() => registry.register('demo', definition('t', { timeoutMs: 0 }))).toThrow(/工具 t 的 timeoutMs 必须是正数/);
      expect(() => registry.register('demo', definition('t', { timeoutMs: Number.POSITIVE_INFINITY }))).toThrow(/timeoutMs/);
      expect(() => registry.register('demo', definition('t', { capabilities: [''] }))).toThrow(/capabilities/);
      expect(() => registry.register('demo', definition('t', { execute: undefined as never }))).toThrow(/缺少 execute/);
      expect(() => registry.register('', definition('t'))).toThrow(/注册者/);
      expect(() => registry.register('demo', definition(''))).toThrow(/名称/);
      expect(registry.list()).toEqual([]);
    });

    it('returns a disposer that removes the tool and is safe to call twice', () => {
      const { registry } = createTestRegistry();
      const dispose = registry.register('demo', definition('search'));
      dispose();
      expect(registry.get('search')).toBeUndefined();
      registry.register('other', definition('search'));
      dispose();
      expect(registry.get('search')?.owner).toBe('other');
    });
  });

  describe('.list and .get', () => {
    it('lists tools with their owners, sorted by name', () => {
      const { registry } = createTestRegistry();
      const zeta = definition('zeta');
      registry.register('b', zeta);
      registry.register('a', definition('alpha'));
      expect(registry.list().map(({ owner, definition: { name } }) => [owner, name])).toEqual([
        ['a', 'alpha'],
        ['b', 'zeta'],
      ]);
      expect(registry.get('zeta')).toEqual({ owner: 'b', definition: zeta });
      expect(registry.get('missing')).toBeUndefined();
    });
  });

  describe('.declarations and .isOffered', () => {
    it('[T-10] offers readonly tools by default and reversible ones only when explicitly enabled', () => {
      const enabled = new Set<string>();
      const { registry } = createTestRegistry({ isReversibleEnabled: (name) => enabled.has(name) });
      registry.register('demo', definition('read_notes'));
      registry.register('demo', definition('edit_note', { sideEffect: 'reversible' }));
      const names = () => registry.declarations({ capabilities: new Set() }).map((declaration) => declaration.function.name);
      expect(names()).toEqual(['read_notes']);
      expect(registry.isOffered('edit_note', new Set())).toBe(false);
      enabled.add('edit_note');
      expect(names()).toEqual(['edit_note', 'read_notes']);
      expect(registry.isOffered('edit_note', new Set())).toBe(true);
    });

    it('[T-10] offers no reversible tool when isReversibleEnabled is not given', () => {
      const { registry } = createTestRegistry();
      registry.register('demo', definition('edit_note', { sideEffect: 'reversible' }));
      expect(registry.declarations({ capabilities: new Set() })).toEqual([]);
    });

    it('treats an isReversibleEnabled that throws as not enabled, with a warning', () => {
      const { registry, warnings } = createTestRegistry({
        isReversibleEnabled: () => {
          throw new Error('config unreadable');
        },
      });
      registry.register('demo', definition('edit_note', { sideEffect: 'reversible' }));
      expect(registry.isOffered('edit_note', new Set())).toBe(false);
      expect(warnings()[0]).toMatchObject({ tool: 'edit_note', owner: 'demo' });
    });

    it('[T-23] leaves out a tool whose capability the stream lacks, and offers it where the stream has them all', () => {
      const { registry } = createTestRegistry();
      registry.register('forward', definition('read_forward', { capabilities: ['forward_message'] }));
      registry.register('links', definition('read_link', { capabilities: ['link_content', 'network'] }));
      registry.register('core', definition('clock'));
      const names = (capabilities: string[]) => registry.declarations({ capabilities: new Set(capabilities) }).map((declaration) => declaration.function.name);
      expect(names([])).toEqual(['clock']);
      expect(names(['forward_message'])).toEqual(['clock', 'read_forward']);
      expect(names(['link_content'])).toEqual(['clock']);
      expect(names(['link_content', 'network', 'forward_message', 'custom'])).toEqual(['clock', 'read_forward', 'read_link']);
      expect(registry.isOffered('read_forward', new Set())).toBe(false);
      expect(registry.isOffered('read_forward', new Set(['forward_message']))).toBe(true);
      expect(registry.isOffered('missing', new Set())).toBe(false);
    });

    it('declares OpenAI functions with the model-facing parameters, sorted by name', () => {
      const { registry } = createTestRegistry();
      registry.register('demo', definition('search', { description: '需要查资料时调用。', parameters: z.object({ query: z.string().max(50).describe('搜索词'), limit: z.int().default(5) }) }));
      registry.register('demo', definition('about'));
      expect(registry.declarations({ capabilities: new Set() })).toEqual([
        { type: 'function', function: { name: 'about', description: '在需要 about 时调用。', parameters: { type: 'object', properties: {}, additionalProperties: false } } },
        {
          type: 'function',
          function: {
            name: 'search',
            description: '需要查资料时调用。',
            parameters: {
              type: 'object',
              properties: { query: { type: 'string', maxLength: 50, description: '搜索词' }, limit: { type: 'integer', default: 5 } },
              required: ['query'],
              additionalProperties: false,
            },
          },
        },
      ]);
    });

    it('hands out copies, so a caller editing a declaration changes nothing', () => {
      const { registry } = createTestRegistry();
      registry.register('demo', definition('search', { parameters: { type: 'object', properties: { q: { type: 'string' } } } }));
      const [first] = registry.declarations({ capabilities: new Set() });
      first!.function.parameters.properties!['q']!['type'] = 'number';
      const [second] = registry.declarations({ capabilities: new Set() });
      expect(second!.function.parameters.properties).toEqual({ q: { type: 'string' } });
    });
  });

  describe('.execute', () => {
    it('runs the tool with the validated arguments (defaults applied) and returns its result', async () => {
      const { registry, warnings } = createTestRegistry();
      const execute = vi.fn(async (invocation: ToolInvocation, _context: ToolContext) =>
        ToolExecutionResult.ok(invocation.toolName, `搜索 ${String(invocation.arguments['query'])}`, { hits: 2 }),
      );
      registry.register('demo', definition('search', { parameters: z.object({ query: z.string(), limit: z.int().default(5) }), execute }));
      const result = await registry.execute({ toolName: 'search', callId: 'c7', arguments: { query: '月' } }, streamContext());
      expect(result).toMatchObject({ toolName: 'search', success: true, observation: '搜索 月', metadata: { hits: 2 } });
      expect(execute).toHaveBeenCalledOnce();
      const [invocation, context] = execute.mock.calls[0]!;
      expect(invocation).toEqual({ toolName: 'search', callId: 'c7', arguments: { query: '月', limit: 5 } });
      expect(context.streamId).toBe('stream-1');
      expect(context.signal.aborted).toBe(false);
      expect(warnings()).toEqual([]);
    });

    it('fails an unknown tool, logging a warning', async () => {
      const { registry, warnings } = createTestRegistry();
      const result = await registry.execute(call('nope'), streamContext());
      expect(result).toMatchObject({ toolName: 'nope', success: false, errorMessage: '未注册的工具 nope', metadata: { failureKind: 'unknown_tool' } });
      expect(warnings()[0]).toMatchObject({ tool: 'nope', failureKind: 'unknown_tool', callId: 'call-1', streamId: 'stream-1' });
    });

    it('fails a tool that is not offered in the stream without calling it', async () => {
      const { registry } = createTestRegistry();
      const execute = vi.fn(async (invocation: ToolInvocation) => ToolExecutionResult.ok(invocation.toolName, 'x'));
      registry.register('demo', definition('read_forward', { capabilities: ['forward_message'], execute }));
      registry.register('demo', definition('edit_note', { sideEffect: 'reversible', execute }));
      const forward = await registry.execute(call('read_forward'), streamContext());
      const edit = await registry.execute(call('edit_note'), streamContext(['forward_message']));
      expect(forward).toMatchObject({ success: false, errorMessage: '工具 read_forward 在当前会话中不可用', metadata: { failureKind: 'not_offered' } });
      expect(edit).toMatchObject({ success: false, metadata: { failureKind: 'not_offered' } });
      expect(execute).not.toHaveBeenCalled();
      expect((await registry.execute(call('read_forward'), streamContext(['forward_message']))).success).toBe(true);
    });

    it('[T-11] rejects arguments of the wrong type or length without calling the tool, naming the field', async () => {
      const { registry, warnings } = createTestRegistry();
      const execute = vi.fn(async (invocation: ToolInvocation) => ToolExecutionResult.ok(invocation.toolName, 'x'));
      registry.register('demo', definition('greet', {
        parameters: { type: 'object', properties: { name: { type: 'string', maxLength: 4 } }, required: ['name'], additionalProperties: false },
        execute,
      }));
      const wrongType = await registry.execute(call('greet', { name: 7 }), streamContext());
      const tooLong = await registry.execute(call('greet', { name: '一二三四五' }), streamContext());
      const unknownKey = await registry.execute(call('greet', { name: 'a', shout: true }), streamContext());
      expect(wrongType).toMatchObject({ success: false, errorMessage: '参数 name：应为字符串，收到整数', metadata: { failureKind: 'invalid_arguments' } });
      expect(tooLong.errorMessage).toBe('参数 name：长度不能超过 4 个字符，收到 5 个');
      expect(unknownKey.errorMessage).toBe('参数 shout：未知字段');
      expect(execute).not.toHaveBeenCalled();
      expect(warnings().map((record) => record['failureKind'])).toEqual(['invalid_arguments', 'invalid_arguments', 'invalid_arguments']);
    });

    it('turns a throwing tool into a failure carrying the error text, logged with the tool and owner', async () => {
      const { registry, warnings } = createTestRegistry();
      registry.register('demo', definition('flaky', {
        execute: async () => {
          throw new Error('上游服务 502');
        },
      }));
      const result = await registry.execute(call('flaky'), streamContext());
      expect(result).toMatchObject({ success: false, errorMessage: '执行出错：上游服务 502', metadata: { failureKind: 'threw' } });
      expect(warnings()[0]).toMatchObject({ tool: 'flaky', owner: 'demo', failureKind: 'threw', err: 'Error: 上游服务 502' });
    });

    it('turns a body that throws synchronously, or throws a non-error, into a failure', async () => {
      const { registry } = createTestRegistry();
      registry.register('demo', definition('sync_throw', {
        execute: () => {
          throw new TypeError('bad state');
        },
      }));
      registry.register('demo', definition('string_throw', { execute: () => Promise.reject('just a string') }));
      expect((await registry.execute(call('sync_throw'), streamContext())).errorMessage).toBe('执行出错：bad state');
      expect((await registry.execute(call('string_throw'), streamContext())).errorMessage).toBe('执行出错：just a string');
    });

    it('fails a tool that returns something other than a ToolExecutionResult', async () => {
      const { registry } = createTestRegistry();
      registry.register('demo', definition('plain', { execute: async () => 'hello' as never }));
      registry.register('demo', definition('lookalike', { execute: async () => ({ toolName: 'lookalike', success: true, observation: 'x' }) as never }));
      expect(await registry.execute(call('plain'), streamContext())).toMatchObject({
        success: false,
        errorMessage: '工具 plain 返回的不是 ToolExecutionResult，而是 string',
        metadata: { failureKind: 'invalid_result' },
      });
      expect((await registry.execute(call('lookalike'), streamContext())).errorMessage).toBe('工具 lookalike 返回的不是 ToolExecutionResult，而是 Object 对象');
    });

    it('fails a result that carries another tool’s name', async () => {
      const { registry } = createTestRegistry();
      registry.register('demo', definition('copycat', { execute: async () => ToolExecutionResult.ok('someone_else', 'x') }));
      expect(await registry.execute(call('copycat'), streamContext())).toMatchObject({
        toolName: 'copycat',
        success: false,
        errorMessage: '工具执行结果名称不一致：调用的是 copycat，结果来自 someone_else',
        metadata: { failureKind: 'name_mismatch' },
      });
    });

    it('[T-11] caps a long observation before it returns to the prompt, with the visible mark', async () => {
      const { registry } = createTestRegistry({ observationMaxChars: 50 });
      registry.register('demo', definition('dump', { execute: async (invocation) => ToolExecutionResult.ok(invocation.toolName, '字'.repeat(500), { nextOffset: 500 }) }));
      const result = await registry.execute(call('dump'), streamContext());
      expect(result.success).toBe(true);
      expect([...result.observation]).toHaveLength(50);
      expect(result.observation.endsWith('…（已截断）')).toBe(true);
      expect(result.metadata).toEqual({ nextOffset: 500 });
    });

    it('caps observations at 4000 characters by default', async () => {
      const { registry } = createTestRegistry();
      registry.register('demo', definition('dump', { execute: async (invocation) => ToolExecutionResult.ok(invocation.toolName, 'x'.repeat(4001)) }));
      const result = await registry.execute(call('dump'), streamContext());
      expect(result.observation).toHaveLength(4000);
      expect(result.observation.endsWith('…（已截断）')).toBe(true);
    });

    it('passes a failure the tool reports through unchanged (error message capped) and logs it', async () => {
      const { registry, warnings } = createTestRegistry({ observationMaxChars: 40 });
      registry.register('demo', definition('lookup', { execute: async (invocation) => ToolExecutionResult.fail(invocation.toolName, '没有找到'.repeat(20), { query: 'x' }) }));
      const result = await registry.execute(call('lookup'), streamContext());
      expect(result).toMatchObject({ success: false, metadata: { query: 'x' } });
      expect([...result.errorMessage]).toHaveLength(40);
      expect(warnings()[0]).toMatchObject({ tool: 'lookup', owner: 'demo', failureKind: 'reported' });
    });

    describe('when a call runs past its timeoutMs', () => {
      it('fails with 「执行超过 N 毫秒」 at the deadline, not before, and aborts the tool’s signal', async () => {
        const { registry, clock, warnings } = createTestRegistry();
        let toolSignal: AbortSignal | undefined;
        registry.register('demo', definition('slow', {
          timeoutMs: 500,
          execute: (_invocation, context) => {
            toolSignal = context.signal;
            return hang();
          },
        }));
        let settled = false;
        const pending = registry.execute(call('slow'), streamContext());
        void pending.then(() => (settled = true));
        await clock.advance(499);
        expect(settled).toBe(false);
        expect(toolSignal?.aborted).toBe(false);
        await clock.advance(1);
        const result = await pending;
        expect(result).toMatchObject({ success: false, errorMessage: '执行超过 500 毫秒', metadata: { failureKind: 'timed_out' } });
        expect(toolSignal?.aborted).toBe(true);
        expect((toolSignal?.reason as Error).name).toBe('TimeoutError');
        expect(warnings()[0]).toMatchObject({ tool: 'slow', owner: 'demo', failureKind: 'timed_out' });
        expect(clock.pendingTimers).toBe(0);
      });

      it('ignores a result that arrives after the timeout', async () => {
        const { registry, clock, warnings } = createTestRegistry();
        registry.register('demo', definition('late', {
          timeoutMs: 100,
          execute: async (invocation) => {
            await clock.sleep(1_000);
            return ToolExecutionResult.ok(invocation.toolName, 'too late');
          },
        }));
        const pending = registry.execute(call('late'), streamContext());
        await clock.advance(100);
        const result = await pending;
        await clock.advance(5_000);
        expect(result).toMatchObject({ success: false, errorMessage: '执行超过 100 毫秒' });
        expect(warnings()).toHaveLength(1);
      });

      it('ignores a rejection caused by the abort itself', async () => {
        const { registry, clock } = createTestRegistry();
        registry.register('demo', definition('polite', {
          timeoutMs: 100,
          execute: (_invocation, context) => clock.sleep(10_000, context.signal).then(() => ToolExecutionResult.ok('polite', 'x')),
        }));
        const pending = registry.execute(call('polite'), streamContext());
        await clock.advance(100);
        expect((await pending).errorMessage).toBe('执行超过 100 毫秒');
      });

      it('clears the timer when the tool finishes in time', async () => {
        const { registry, clock } = createTestRegistry();
        registry.register('demo', definition('quick', {
          timeoutMs: 100,
          execute: async (invocation) => {
            await clock.sleep(99);
            return ToolExecutionResult.ok(invocation.toolName, 'done');
          },
        }));
        const pending = registry.execute(call('quick'), streamContext());
        await clock.advance(99);
        expect((await pending).observation).toBe('done');
        expect(clock.pendingTimers).toBe(0);
      });
    });

    describe('when the caller’s signal aborts', () => {
      it('aborts the tool’s signal and fails the call as cancelled', async () => {
        const { registry, clock } = createTestRegistry();
        let toolSignal: AbortSignal | undefined;
        registry.register('demo', definition('slow', {
          execute: (_invocation, context) => {
            toolSignal = context.signal;
            return hang();
          },
        }));
        const turn = new AbortController();
        const pending = registry.execute(call('slow'), streamContext([], turn.signal));
        await flushMicrotasks();
        turn.abort(new Error('user interrupted'));
        const result = await pending;
        expect(result).toMatchObject({ success: false, errorMessage: '调用已取消', metadata: { failureKind: 'cancelled' } });
        expect(toolSignal?.aborted).toBe(true);
        expect((toolSignal?.reason as Error).message).toBe('user interrupted');
        expect(clock.pendingTimers).toBe(0);
      });

      it('does not call the tool when the signal has already aborted', async () => {
        const { registry } = createTestRegistry();
        const execute = vi.fn(async (invocation: ToolInvocation) => ToolExecutionResult.ok(invocation.toolName, 'x'));
        registry.register('demo', definition('search', { execute }));
        const result = await registry.execute(call('search'), streamContext([], AbortSignal.abort()));
        expect(result.metadata).toEqual({ failureKind: 'cancelled' });
        expect(execute).not.toHaveBeenCalled();
      });
    });
  });
});
