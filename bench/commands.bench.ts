import 'reflect-metadata';
import { Container } from 'inversify';
import { BotConfigSchema } from '../src/chat/bot-config.js';
import { InboundGates } from '../src/chat/inbound-gates.js';
import type { Message } from '../src/chat/message.js';
import type { StreamApi } from '../src/chat/stream-api.js';
import { createCommandGates } from '../src/commands/command-gates.js';
import type { CommandOperator } from '../src/commands/command-context.js';
import { EventBus } from '../src/kernel/event-bus/event-bus.js';
import { createMemoryLogger } from '../src/kernel/logger/memory-logger.js';
import { ComponentRegistry } from '../src/kernel/registry/component-registry.js';
import { systemClock } from '../src/kernel/time/clock.js';
import { printTable, runInterleaved } from './harness.js';
import { judgeGoal } from './support/goal.js';

// Issue 18: what the guests and commands gates add to a message that is not a command,
// against the same ingress step with no gates (what a host without commands runs).

function groupMessage(content: string): Message {
  return {
    messageId: 'm1',
    streamId: 's1',
    direction: 'inbound',
    time: 0,
    content,
    processedPlainText: content,
    senderId: '42',
    senderName: '阿明',
    senderRole: 'member',
    platform: 'qq',
    chatType: 'group',
    extra: { mentions_bot: true, at_users: ['10000'], group_id: '777' },
  } as unknown as Message;
}

export async function benchCommands(): Promise<boolean> {
  const { logger } = createMemoryLogger('error');
  const bus = new EventBus({ clock: systemClock, logger });
  const registry = new ComponentRegistry({ container: new Container(), bus, logger });
  const bot = BotConfigSchema.parse({ permissions: { owners: { qq: ['1', '2', '3'] }, blocklist: { qq: ['4', '5', '6'] } } });
  const withCommands = new InboundGates(logger);
  for (const gate of createCommandGates({
    registry,
    bus,
    streams: {} as StreamApi,
    bot,
    clock: systemClock,
    logger,
    pluginContextOf: () => undefined,
    operator: {} as CommandOperator,
  })) withCommands.add(gate);
  const withoutCommands = new InboundGates(logger);
  const message = groupMessage('@月璃 今天晚上吃什么？有人一起去吃火锅吗');
  const results = await runInterleaved(
    [
      { name: 'no gates (a host without commands)', fn: () => withoutCommands.admit(message), async: true },
      { name: 'guests + commands gates, not a command', fn: () => withCommands.admit(message), async: true },
    ],
    { batch: 20_000, rounds: 15 },
  );
  printTable('Command matching on a message that is not a command', results, (name) => (name.startsWith('guests') ? 'no gates (a host without commands)' : undefined));
  // Judged on the median of the per-round differences: each round's pair ran under the same load.
  const withGates = results[1]!.samples;
  const added = results[0]!.samples.map((without, round) => (withGates[round]! - without) / 1000);
  return judgeGoal({ label: 'commands gates, added per message that is not a command', samples: added, comparison: '<', limit: 5, unit: ' µs' });
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = (await benchCommands()) ? 0 : 1;
