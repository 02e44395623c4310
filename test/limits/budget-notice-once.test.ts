import { describe, expect, it } from 'vitest';
import { budgetOwnerNotice } from '../../src/app/budget-owner-notice.js';
import { BotConfigSchema } from '../../src/chat/bot-config.js';
import type { OutgoingMessage, SendOutcome, StreamApi } from '../../src/chat/stream-api.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { TokenBudgetSpentError } from '../../src/llm/errors/token-budget-spent-error.js';
import { useTestDatabases } from '../storage/storage-fixtures.js';

// Issue 18 item 4: "the owner gets one notice" per task per day, also across a restart: the
// notice is recorded in the database (sent_notices) before it is sent.

const bot = BotConfigSchema.parse({ permissions: { owners: { qq: ['20001'] } }, accounts: { qq: '10000' } });

function spent(day: string, taskName = 'actor'): TokenBudgetSpentError {
  return new TokenBudgetSpentError({ taskName, budget: 500, used: 512, day, resetsAt: Date.UTC(2026, 0, 2), timeZone: 'UTC' });
}

/** The streams as the notice uses them: it sends into the owner's private conversation. */
function recordingStreams(): { streams: StreamApi; sent: { streamId: string; message: OutgoingMessage }[] } {
  const sent: { streamId: string; message: OutgoingMessage }[] = [];
  const streams = {
    getStream: () => undefined,
    activateStream: () => undefined,
    send: (streamId: string, message: OutgoingMessage): Promise<SendOutcome> => {
      sent.push({ streamId, message });
      return Promise.resolve({ status: 'failed', reason: 'not sent: this test records what would go out' } satisfies SendOutcome);
    },
  } as unknown as StreamApi;
  return { streams, sent };
}

describe('the owner’s budget notice', () => {
  const databases = useTestDatabases();

  it('[issue 18] is sent once per task per day, and a restart on the same data file does not send it again', () => {
    const { file, database } = databases.fresh();
    const clock = new ManualClock();
    const { logger } = createMemoryLogger();
    const first = recordingStreams();
    const notify = budgetOwnerNotice({ bot, database: () => database, streams: first.streams, clock, logger });
    notify(spent('2026-01-01'), undefined);
    notify(spent('2026-01-01'), undefined);
    expect(first.sent).toHaveLength(1);
    expect(first.sent[0]!.message.content).toContain('任务 actor 已用 512 / 500 tokens');
    database.close();

    // The process restarts on the same day: a new notifier on the reopened file stays silent.
    const reopened = databases.open(file);
    const second = recordingStreams();
    const notifyAgain = budgetOwnerNotice({ bot, database: () => reopened, streams: second.streams, clock, logger });
    notifyAgain(spent('2026-01-01'), undefined);
    expect(second.sent).toHaveLength(0);

    // Another task, or the next day, is told again.
    notifyAgain(spent('2026-01-01', 'sub_agent'), undefined);
    notifyAgain(spent('2026-01-02'), undefined);
    expect(second.sent.map((entry) => entry.message.content.match(/任务 (\S+)/)?.[1])).toEqual(['sub_agent', 'actor']);
  });
});
