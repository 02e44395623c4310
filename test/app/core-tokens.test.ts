import { describe, expect, it } from 'vitest';
import type { OutboundDelivery, OutboundSink } from '../../src/chat/outbound-sink.js';
import type { StreamApi } from '../../src/chat/stream-api.js';
import { BindingOverrideError } from '../../src/kernel/errors/binding-override-error.js';
import { overlay } from '../../src/kernel/registry/overlay.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { SequenceRandom } from '../../src/kernel/time/random.js';
import { TOKENS } from '../../src/kernel/tokens.js';
import type { LlmService } from '../../src/llm/llm-service.js';
import type { ModelCall, ModelClient } from '../../src/llm/model-client.js';
import type { PromptManager } from '../../src/llm/prompt-manager.js';
import type { McpHostService } from '../../src/mcp/mcp-host-service.js';
import type { MediaService } from '../../src/media/media-service.js';
import type { Database } from '../../src/storage/database.js';
import type { ToolRegistry } from '../../src/tools/tool-registry.js';
import { textReply, toolReply, useTestHosts } from '../support/ndfc.js';

const say = (content: string) => toolReply([{ name: 'send_text', args: { content } }]);

/**
 * Issue 14, item 1: the host reads its own services through the container, so overriding a
 * core token changes what a real conversation does, and the disposer restores the default.
 */
describe('core tokens: an override changes the whole host, its disposer restores the default', () => {
  const start = useTestHosts();

  it('[issue 14] TOKENS.Clock: an overridden clock drives the typing delay and the stream loop; undone, the host clock does again', async () => {
    const test = await start({ script: [say('你好呀'), say('又见面了')] });
    const other = new ManualClock(test.clock.now());
    const undo = test.host.registry.override(TOKENS.Clock, { useValue: other });

    await test.adapter.send('你好');
    await test.settle(30_000); // the host's own clock moves; nothing waits on it now
    expect(test.adapter.texts()).toEqual([]);
    for (let step = 0; step < 60; step += 1) await other.advance(500);
    expect(test.adapter.texts()).toEqual(['你好呀']);
    expect(test.host.clock.now()).toBe(other.now());

    undo();
    await test.adapter.send('再来');
    for (let step = 0; step < 60; step += 1) await other.advance(500);
    expect(test.adapter.texts()).toEqual(['你好呀']); // the overriding clock drives nothing now
    await test.settle(30_000);
    expect(test.adapter.texts()).toEqual(['你好呀', '又见面了']);
  });

  it('[issue 14] TOKENS.ModelClient: every model call goes to the override (with its provider named); undone, the configured model answers', async () => {
    const test = await start({ script: [say('来自脚本')] });
    const calls: ModelCall[] = [];
    const client: ModelClient = {
      complete: async (call) => {
        calls.push(call);
        return say('来自覆盖的模型');
      },
    };
    const undo = test.host.registry.override(TOKENS.ModelClient, { useValue: client });
    await test.adapter.send('你好');
    await test.settle(30_000);
    expect(test.adapter.texts()).toEqual(['来自覆盖的模型']);
    expect(test.model.calls).toHaveLength(0);
    expect(calls[0]).toMatchObject({ provider: 'offline', model: 'offline-demo' });

    undo();
    await test.adapter.send('再来');
    await test.settle(30_000);
    expect(test.adapter.texts()).toEqual(['来自覆盖的模型', '来自脚本']);
    expect(test.model.calls).toHaveLength(1);
  });

  it('[issue 14] TOKENS.ModelClient with wrap: the override decorates the default client it replaced', async () => {
    const test = await start({ script: [textReply('原话')] });
    test.host.registry.override<ModelClient>(TOKENS.ModelClient, {
      wrap: (replaced) => ({
        complete: async (call, signal) => {
          const reply = await replaced.complete(call, signal);
          return say(`${reply.message}（经过包装）`);
        },
      }),
    });
    await test.adapter.send('你好');
    await test.settle(30_000);
    expect(test.adapter.texts()).toEqual(['原话（经过包装）']);
  });

  it('[issue 14] TOKENS.Storage: a wrapped storage receives every message the ingress stores and every reply; undone, it receives nothing more', async () => {
    const test = await start({ script: [say('收到'), say('收到了')] });
    const inbound: string[] = [];
    const outbound: string[] = [];
    const undo = test.host.registry.override<Database>(TOKENS.Storage, {
      wrap: (replaced) =>
        overlay(replaced, {
          messages: overlay(replaced.messages, {
            insertInbound: (message) => {
              inbound.push(message.content);
              return replaced.messages.insertInbound(message);
            },
            insertOutbound: (message) => {
              outbound.push(message.content);
              return replaced.messages.insertOutbound(message);
            },
          }),
        }),
    });
    await test.adapter.send('第一条');
    await test.settle(30_000);
    expect(inbound).toEqual(['第一条']);
    expect(outbound).toEqual(['收到']);
    // What went through the wrapper is in the host's database, as without it.
    expect(test.host.chat.database.messages.history(test.adapter.sent[0]!.streamId, 10).map((message) => message.content)).toEqual(['第一条', '收到']);

    undo();
    await test.adapter.send('第二条');
    await test.settle(30_000);
    expect(inbound).toEqual(['第一条']);
    expect(outbound).toEqual(['收到']);
    expect(test.adapter.texts()).toEqual(['收到', '收到了']);
  });

  it('[issue 14] TOKENS.Streams: what NDFC sends goes through the overriding stream API', async () => {
    const test = await start({ script: [say('一'), say('二')] });
    const sent: string[] = [];
    const undo = test.host.registry.override<StreamApi>(TOKENS.Streams, {
      wrap: (replaced) =>
        overlay(replaced, {
          send: (streamId, message, options) => {
            sent.push(message.content);
            return replaced.send(streamId, { ...message, content: `【${message.content}】` }, options);
          },
        }),
    });
    await test.adapter.send('你好');
    await test.settle(30_000);
    expect(sent).toEqual(['一']);
    expect(test.adapter.texts()).toEqual(['【一】']);
    undo();
    await test.adapter.send('再来');
    await test.settle(30_000);
    expect(test.adapter.texts()).toEqual(['【一】', '二']);
  });

  it('[issue 14] TOKENS.Egress: deliveries go out through the override instead of the adapter; undone, through the adapter again', async () => {
    const test = await start({ script: [say('走旁路'), say('走正路')] });
    const diverted: OutboundDelivery[] = [];
    const egress: OutboundSink = {
      deliver: async (delivery) => {
        diverted.push(delivery);
        return { messageId: `side-${diverted.length}` };
      },
    };
    const undo = test.host.registry.override(TOKENS.Egress, { useValue: egress });
    await test.adapter.send('你好');
    await test.settle(30_000);
    expect(diverted.map((delivery) => delivery.content)).toEqual(['走旁路']);
    expect(test.adapter.texts()).toEqual([]);
    // Delivered, so the outbox is empty and the reply is stored with the override's message id.
    expect(test.host.chat.database.outbox.count()).toBe(0);
    expect(test.host.chat.database.messages.history(diverted[0]!.streamId, 10).at(-1)).toMatchObject({ messageId: 'side-1', content: '走旁路' });

    undo();
    await test.adapter.send('再来');
    await test.settle(30_000);
    expect(test.adapter.texts()).toEqual(['走正路']);
  });

  it('[issue 14] TOKENS.Random: the group probability gate draws from the override', async () => {
    const test = await start({
      script: [say('在呢'), say('还在')],
      pluginConfigs: { neo_default_chatter: '[plugin]\nenable_sub_agent_decision = false\nprobability_base = 0.5\nprobability_per_unread = 0.0\n' },
    });
    const undoMiss = test.host.registry.override(TOKENS.Random, { useValue: new SequenceRandom([0.99]) });
    await test.adapter.send('大家好', { group: '900' });
    await test.settle(30_000);
    expect(test.model.calls).toHaveLength(0); // the draw missed: no reply
    undoMiss();
    test.host.registry.override(TOKENS.Random, { useValue: new SequenceRandom([0]) });
    await test.adapter.send('有人吗', { group: '900' });
    await test.settle(30_000);
    expect(test.adapter.texts()).toEqual(['在呢']);
  });

  it('[issue 14] TOKENS.Llm: NDFC builds its requests through the overriding LLM service', async () => {
    const test = await start({ script: [say('好')] });
    const tasks: string[] = [];
    test.host.registry.override<LlmService>(TOKENS.Llm, {
      wrap: (replaced) =>
        overlay(replaced, {
          createRequest: (init) => {
            tasks.push(init.taskName);
            return replaced.createRequest(init);
          },
        }),
    });
    await test.adapter.send('你好');
    await test.settle(30_000);
    expect(tasks).toContain('actor');
    expect(test.adapter.texts()).toEqual(['好']);
  });

  it('[issue 14] TOKENS.Prompts: NDFC builds its system prompt through the overriding prompt manager', async () => {
    const test = await start({ script: [say('好')] });
    const built: string[] = [];
    test.host.registry.override<PromptManager>(TOKENS.Prompts, {
      wrap: (replaced) =>
        overlay(replaced, {
          build: async (name, values, options) => {
            built.push(name);
            return `${await replaced.build(name, values, options)}\n（覆盖的提示词）`;
          },
        }),
    });
    await test.adapter.send('你好');
    await test.settle(30_000);
    expect(built.length).toBeGreaterThan(0);
    expect(JSON.stringify(test.model.calls[0]!.payloads)).toContain('（覆盖的提示词）');
  });

  it('[issue 14] TOKENS.Tools: the tools offered to the model come from the overriding tool registry', async () => {
    const test = await start({ script: [say('好')] });
    let asked = 0;
    test.host.registry.override<ToolRegistry>(TOKENS.Tools, {
      wrap: (replaced) =>
        overlay(replaced, {
          declarations: (options) => {
            asked += 1;
            return replaced.declarations(options);
          },
        }),
    });
    await test.adapter.send('你好');
    await test.settle(30_000);
    expect(asked).toBeGreaterThan(0);
    expect(test.host.tools.declarations({ capabilities: new Set() })).toEqual([]);
    expect(asked).toBeGreaterThan(1); // host.tools follows the binding too
  });

  it('[issue 14] TOKENS.Media: inbound images are described by the overriding media service', async () => {
    const test = await start({ script: [say('看到了')] });
    const described: string[] = [];
    test.host.registry.override<MediaService>(TOKENS.Media, {
      wrap: (replaced) =>
        overlay(replaced, {
          imagesAvailable: () => true,
          describeImage: async (url) => {
            described.push(url);
            return '一只橘猫';
          },
        }),
    });
    await test.adapter.send('[图片]', { media: [{ kind: 'image', url: 'https://example.com/cat.png' }] });
    await test.settle(30_000);
    expect(described).toEqual(['https://example.com/cat.png']);
    expect(JSON.stringify(test.model.calls[0]!.payloads)).toContain('一只橘猫');
  });

  it('[issue 14] TOKENS.Mcp: a loaded plugin’s ctx.mcp and the host follow the overriding MCP service; undone, the configured one again', async () => {
    const test = await start({ script: [say('好')] });
    const plugin = test.host.plugins.get('neo_default_chatter')!;
    const askedBy: string[] = [];
    const status = [{ name: 'fake', state: 'connected' }] as unknown as ReturnType<McpHostService['status']>;
    const undo = test.host.registry.override<McpHostService>(TOKENS.Mcp, {
      wrap: (replaced) =>
        overlay(replaced, {
          status: () => status,
          forPlugin: (pluginId) => {
            askedBy.push(pluginId);
            return { callTool: async (server, tool) => ({ isError: false, text: `fake ${server}/${tool}` }) as never };
          },
        }),
    });
    expect(test.host.mcp.status()).toBe(status);
    await expect(plugin.ctx.mcp.callTool('search', 'web')).resolves.toMatchObject({ text: 'fake search/web' });
    expect(askedBy).toEqual(['neo_default_chatter']);

    undo();
    expect(test.host.mcp.status()).toEqual([]);
    await expect(plugin.ctx.mcp.callTool('search', 'web')).rejects.toThrow(/search/); // no such server configured
  });

  it('[issue 14] a wrap override is refused for a component signature and when it throws, leaving the binding as it was', async () => {
    const test = await start({ script: [say('好')] });
    const before = test.host.registry.core(TOKENS.ModelClient);
    expect(() =>
      test.host.registry.override(TOKENS.ModelClient, {
        wrap: () => {
          throw new Error('boom');
        },
      }),
    ).toThrow(/wrap function threw: boom/);
    expect(() => test.host.registry.override('neo_default_chatter:service:chat_core', { wrap: (replaced: unknown) => replaced as object })).toThrow(
      BindingOverrideError,
    );
    expect(test.host.registry.core(TOKENS.ModelClient)).toBe(before);
  });
});
