import 'reflect-metadata';
import { createHost } from '../src/app/create-host.js';
import { CountingSink } from './support/counting-sink.js';
import { BaseAction, type ActionContext } from '../src/chatter/base-action.js';
import { BaseChatter } from '../src/chatter/base-chatter.js';
import { Wait } from '../src/chatter/chatter-result.js';
import type { ChatterGenerator } from '../src/chatter/chatter-run.js';
import { action, chatter } from '../src/kernel/components/decorators.js';
import { createLogger } from '../src/kernel/logger/create-logger.js';
import { ScriptedModel } from '../src/llm/scripted-model.js';
import { ToolExecutionResult } from '../src/tools/tool-execution-result.js';
import { formatNs } from './harness.js';
import { judgeGoal, median } from './support/goal.js';

@action('send_text', {
  description: 'Send a text message to the current chat.',
  parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
})
class SendText extends BaseAction {
  async execute(args: Record<string, unknown>, context: ActionContext): Promise<ToolExecutionResult> {
    await context.streams.send(context.streamId, { content: String(args['content']) });
    return ToolExecutionResult.ok('send_text', 'sent');
  }
}

/** A turn as a real chatter does it: unreads, a request with usables, the model, the calls. */
@chatter('bench_chatter')
class BenchChatter extends BaseChatter {
  async *execute(): ChatterGenerator {
    for (;;) {
      const unreads = this.fetchUnreads();
      const request = this.createRequest('actor');
      request.addPayload({ role: 'system', content: 'You are a bench bot.' });
      request.addPayload({ role: 'user', content: unreads.map((message) => message.processedPlainText).join('\n') });
      this.flushUnreads(unreads);
      const usables = await this.injectUsables(request);
      const response = await request.send();
      await this.runToolCall(response.toolCalls, usables);
      yield new Wait();
    }
  }
}


const envelope = (user: number, id: number) => ({
  platform: 'bench',
  message_id: `${user}-${id}`,
  chat_type: 'private' as const,
  sender: { id: String(user), name: `user ${user}` },
  content: `hello ${id}`,
});

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export async function benchChatTurn(): Promise<boolean> {
  // The host's timers never hold the process open (an adapter's socket does that); here nothing else would.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    return await measure();
  } finally {
    clearInterval(keepAlive);
  }
}

async function measure(): Promise<boolean> {
  const model = new ScriptedModel();
  const host = createHost({
    logger: createLogger({ level: 'error', format: 'json' }),
    appConfig: {},
    pluginRoots: [],
    database: 'memory',
    offlineModel: model,
    botConfig: { chat: { default_chatter: 'bench:chatter:bench_chatter', message_buffer_seconds: 0, step_timeout_seconds: 90 } },
  });
  const sink = new CountingSink();
  host.setOutboundSink(sink);
  await host.start();
  const scope = host.createScope('bench');
  host.registry.register(scope, SendText);
  host.registry.register(scope, BenchChatter);

  // One stream, turn after turn: receive -> stored -> loop -> chatter -> model -> action -> egress -> stored,
  // in rounds interleaved (order alternating) with the baseline: only the work a turn cannot
  // avoid (ask the same model, deliver).
  const rounds = 8;
  const turnsPerRound = 250;
  let nextId = 0;
  const hostTurns = async (): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let index = 0; index < turnsPerRound; index += 1) {
      const target = sink.count + 1;
      await host.receive(envelope(1, nextId));
      nextId += 1;
      await sink.until(target);
    }
    return Number(process.hrtime.bigint() - start) / turnsPerRound;
  };
  const baselineSink = new CountingSink();
  const tools = [{ type: 'function' as const, function: { name: 'send_text', description: 'x', parameters: { type: 'object' } } }];
  const baselineTurns = async (): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let index = 0; index < turnsPerRound; index += 1) {
      const reply = await model.complete({ model: 'bench', payloads: [{ role: 'user', content: `hello ${index}` }], tools }, new AbortController().signal);
      await baselineSink.deliver({ streamId: 's', platform: 'bench', chatType: 'private', groupId: null, userId: '1', content: String(reply.toolCalls[0]?.args['content']), replyTo: null, at: null });
    }
    return Number(process.hrtime.bigint() - start) / turnsPerRound;
  };
  for (let index = 0; index < 200; index += 1) {
    const target = sink.count + 1;
    await host.receive(envelope(1, nextId));
    nextId += 1;
    await sink.until(target);
  }
  await baselineTurns();
  const perTurn: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      perTurn.push(await hostTurns());
      baseline.push(await baselineTurns());
    } else {
      baseline.push(await baselineTurns());
      perTurn.push(await hostTurns());
    }
  }
  const framework = perTurn.map((ns, round) => ns - baseline[round]!);
  const perTurnNs = median(perTurn);
  const baselineNs = median(baseline);

  // 1,000 streams at once: throughput, then the memory each idle (waiting) stream holds.
  const streams = 1_000;
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const before = sink.count;
  const concurrentStart = process.hrtime.bigint();
  await Promise.all(Array.from({ length: streams }, (_unused, index) => host.receive(envelope(1_000 + index, 0))));
  await sink.until(before + streams);
  const concurrentMs = Number(process.hrtime.bigint() - concurrentStart) / 1e6;
  collectGarbage();
  const heapAfter = process.memoryUsage().heapUsed;
  const perStreamKb = (heapAfter - heapBefore) / streams / 1024;
  await host.stop();

  const frameworkNs = median(framework);
  console.log(`\nChat turn: an inbound message answered through the whole runtime, instant scripted model, in-memory SQLite (${rounds} interleaved rounds of ${turnsPerRound} turns)`);
  console.log(`  one stream, turn after turn          ${formatNs(perTurnNs).padStart(10)} per turn`);
  console.log(`  baseline: the model call + delivery   ${formatNs(baselineNs).padStart(10)} per turn`);
  console.log(`  framework time per turn               ${formatNs(frameworkNs).padStart(10)} (${(perTurnNs / baselineNs).toFixed(1)}x the baseline)`);
  console.log(`  1,000 streams at once                 ${concurrentMs.toFixed(0)} ms, ${((streams / concurrentMs) * 1000).toFixed(0)} turns/s`);
  console.log(`  heap per idle stream (waiting)        ${perStreamKb.toFixed(1)} KB${(globalThis as { gc?: unknown }).gc === undefined ? ' (run with --expose-gc for a clean figure)' : ''}`);
  const metTurn = judgeGoal({
    label: 'chat turn, framework time (a turn minus the model call and delivery)',
    samples: framework.map((ns) => ns / 1e6),
    comparison: '<',
    limit: 1,
    unit: ' ms',
  });
  const metMemory = judgeGoal({ label: 'heap per idle (waiting) stream, 1,000 streams', samples: [perStreamKb], comparison: '<', limit: 20, unit: ' KB' });
  return metTurn && metMemory;
}
