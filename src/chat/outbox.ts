import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { Database } from '../storage/database.js';
import type { OutboxEntry } from '../storage/outbox-repository.js';
import { deliveryFailureOf } from './delivery-failure.js';
import type { Message } from './message.js';
import type { OutboundDelivery, OutboundSink } from './outbound-sink.js';

/** How the first attempt at a queued reply ended, for the caller of `send`. */
export type FirstAttempt =
  | { readonly status: 'sent'; readonly message: Message }
  /** Not delivered yet (no connection, say); it stays queued and is tried again. */
  | { readonly status: 'queued'; readonly reason: string; readonly outboxId: number }
  /** Dropped: refused by the platform, or past its deadline. */
  | { readonly status: 'failed'; readonly reason: string };

/** What became of a reply in the end. */
export type Settled =
  | { readonly status: 'delivered'; readonly message: Message; readonly confirmed: boolean }
  | { readonly status: 'dropped'; readonly message: Message; readonly reason: string };

export interface RetryPolicy {
  /** The first retry waits this long; each further one doubles it. Default 1 s. */
  initialMs: number;
  /** The longest wait between two tries. Default 15 s. */
  maxMs: number;
  /**
   * How long after a delivery went into doubt the platform is first asked about it: a
   * platform that timed out is often still sending, and its history would not show it yet.
   * Default 10 s.
   */
  confirmAfterMs: number;
}

export interface OutboxOptions {
  database: Database;
  clock: Clock;
  logger: Logger;
  sink: () => OutboundSink;
  /** How long a reply may wait for delivery, from when it was queued. */
  deadlineMs: number;
  retry?: Partial<RetryPolicy>;
  /** A reply left the outbox (delivered or dropped); its stored message is final. */
  onSettled?: (settled: Settled) => void;
}

/** What the outbox stores of a reply: the message as it will be stored, and where it goes. */
export interface QueuedReply {
  streamId: string;
  message: Message;
  delivery: OutboundDelivery;
  /** Not sent before this moment (epoch ms): the typing delay. */
  dueAt: number;
}

/**
 * The durable outbox. A reply is a row before anything is typed; it leaves the table only
 * when the platform acknowledged it (then it is stored as a sent message, in the same
 * transaction) or when it is dropped (refused, or past its deadline: stored as an
 * undelivered message, so the chatter sees it, and logged). One worker per stream sends its
 * rows strictly in order; a failed try waits with a growing delay, or until the connection
 * is back (`wake`). After a restart, `restore` picks up every row left behind.
 */
export class Outbox {
  readonly #options: OutboxOptions;
  readonly #retry: RetryPolicy;
  readonly #workers = new Map<string, Worker>();
  readonly #firstAttempts = new Map<number, (attempt: FirstAttempt) => void>();
  readonly #sleepers = new Set<() => void>();
  #closed = false;

  constructor(options: OutboxOptions) {
    this.#options = options;
    this.#retry = { initialMs: 1_000, maxMs: 15_000, confirmAfterMs: 10_000, ...options.retry };
  }

  /**
   * Queues a reply. `alsoInTransaction` runs in the same transaction as the insert (the
   * stream's unreads are marked answered there), so both are durable together or neither is.
   * Resolves with the first attempt's outcome.
   */
  add(reply: QueuedReply, alsoInTransaction?: () => void): { outboxId: number; firstAttempt: Promise<FirstAttempt> } {
    const { database, clock } = this.#options;
    const now = clock.now();
    // A reply due now in a stream with nothing else queued goes out as soon as it is durable:
    // it is stored already marked as going out (the mark `#attempt` would write next), and
    // its worker starts with it in hand instead of reading it back. If the process dies
    // before the send, the next start finds the mark and asks the platform, as for any
    // attempt cut short. Two statements fewer per reply (issue 20).
    const running = this.#workers.get(reply.streamId);
    const immediate = !this.#closed && reply.dueAt <= now && running === undefined;
    // The running worker reads the table again after the row it holds (see `#drain`).
    if (running !== undefined) running.added = true;
    const entry = {
      streamId: reply.streamId,
      account: reply.delivery.account ?? null,
      message: reply.message,
      delivery: reply.delivery,
      createdAt: now,
      dueAt: Math.max(now, reply.dueAt),
      deadlineAt: now + this.#options.deadlineMs,
      inDoubtAt: immediate ? now : null,
    };
    // Group commit: the row is durable before its send goes out (`#attempt` awaits the commit).
    const outboxId = database.batch(() => {
      alsoInTransaction?.();
      return database.outbox.add(entry);
    });
    const committed = database.committed();
    if (this.#closed) {
      void committed.catch((error: unknown) => this.#notStored(outboxId, reply, error));
      // The host is stopping: the reply is kept for the next start.
      return { outboxId, firstAttempt: Promise.resolve({ status: 'queued', reason: 'the host is stopping; the reply is sent at the next start', outboxId }) };
    }
    let settle!: (attempt: FirstAttempt) => void;
    const firstAttempt = new Promise<FirstAttempt>((resolve) => {
      settle = resolve;
      this.#firstAttempts.set(outboxId, resolve);
    });
    void committed.catch((error: unknown) => {
      const reason = this.#notStored(outboxId, reply, error);
      if (this.#firstAttempts.get(outboxId) === settle) this.#settleFirst(outboxId, { status: 'failed', reason });
    });
    this.#startWorker(reply.streamId, immediate ? { ...entry, rowId: outboxId, attempts: 0, lastError: null } : undefined);
    return { outboxId, firstAttempt };
  }

  /** Starts sending every reply left in the table (after a restart). */
  restore(): void {
    const streams = this.#options.database.outbox.streams();
    if (streams.length > 0) {
      this.#options.logger.info({ streams: streams.length, replies: this.#options.database.outbox.count() }, 'the outbox holds replies from before the restart; sending them');
    }
    for (const streamId of streams) this.#startWorker(streamId);
  }

  /** The connection (or the sink) changed: waiting retries try again now. */
  wake(): void {
    for (const wake of [...this.#sleepers]) wake();
  }

  /**
   * Withdraws a stream's queued replies for which `reasonFor` gives a reason (the messages a
   * reply answers were recalled): each is stored as undelivered with that reason and logged,
   * and its sender is told it failed. A reply going out right now, or one that went out and
   * is in doubt, is left alone (it may already be on the platform). Returns how many.
   */
  withdraw(streamId: string, reasonFor: (message: Message) => string | undefined): number {
    let withdrawn = 0;
    for (const entry of this.#options.database.outbox.forStream(streamId)) {
      // In doubt: out now (marked before it goes) or out without an answer; maybe on the platform already.
      if (entry.inDoubtAt !== null) continue;
      const reason = reasonFor(entry.message as Message);
      if (reason === undefined) continue;
      this.#drop(entry, reason, 'info');
      withdrawn += 1;
    }
    return withdrawn;
  }

  /** Replies still queued in a stream. */
  pendingCount(streamId?: string): number {
    const outbox = this.#options.database.outbox;
    return streamId === undefined ? outbox.count() : outbox.countFor(streamId);
  }

  /** True while a stream's worker is sending or waiting to. */
  isBusy(streamId: string): boolean {
    return this.#workers.has(streamId);
  }

  /**
   * Stops sending: waiting workers end at once, a delivery in flight may finish (up to
   * `graceMs`). Queued rows stay for the next start.
   */
  async close(graceMs = 5_000): Promise<void> {
    this.#closed = true;
    this.wake();
    for (const [outboxId, resolve] of this.#firstAttempts) resolve({ status: 'queued', reason: 'the host is stopping; the reply is sent at the next start', outboxId });
    this.#firstAttempts.clear();
    const workers = [...this.#workers.values()].map((worker) => worker.done);
    if (workers.length === 0) return;
    const controller = new AbortController();
    await Promise.race([Promise.all(workers), this.#options.clock.sleep(graceMs, controller.signal).catch(() => undefined)]);
    controller.abort();
  }

  /** `marked`: the stream's one row, just stored already marked as going out (see `add`). */
  #startWorker(streamId: string, marked?: OutboxEntry): void {
    if (this.#closed || this.#workers.has(streamId)) return;
    // Registered before it runs, and removed by the drain itself in the same turn as it
    // finds nothing left: a drain that ends without awaiting (every row past its deadline)
    // must not leave the stream looking busy for ever, and a row added right after the
    // last check must find no worker and start one.
    const worker: Worker = { done: Promise.resolve(), added: false };
    this.#workers.set(streamId, worker);
    worker.done = this.#drain(streamId, worker, marked).catch((error: unknown) => {
      if (this.#workers.get(streamId) === worker) this.#workers.delete(streamId);
      this.#options.logger.error({ stream_id: streamId, error: describeError(error) }, 'the outbox worker of a stream failed; its replies stay queued until the next start');
    });
  }

  async #drain(streamId: string, worker: Worker, marked?: OutboxEntry): Promise<void> {
    const { database, clock } = this.#options;
    let inHand = marked;
    for (;;) {
      if (inHand !== undefined) {
        const entry = inHand;
        inHand = undefined;
        const left = !this.#closed && database.isOpen && (await this.#attempt(entry, true));
        // The row it held left the table and nothing was added since: the stream's rows are
        // all gone, with no read to tell (one statement fewer per reply, issue 20).
        if (left && !worker.added) {
          if (this.#workers.get(streamId) === worker) this.#workers.delete(streamId);
          return;
        }
        continue;
      }
      const entry = this.#closed || !database.isOpen ? undefined : database.outbox.headOf(streamId);
      if (entry === undefined) {
        if (this.#workers.get(streamId) === worker) this.#workers.delete(streamId);
        return;
      }
      const now = clock.now();
      if (now >= entry.deadlineAt) {
        this.#drop(entry, `not delivered within ${Math.round((entry.deadlineAt - entry.createdAt) / 1000)} s (send_deadline_seconds)${entry.lastError === null ? '' : `; last error: ${entry.lastError}`}`);
        continue;
      }
      if (now < entry.dueAt) {
        await this.#sleep(entry.dueAt - now, false);
        continue;
      }
      await this.#attempt(entry);
    }
  }

  /**
   * `marked`: stored already marked as going out by `add`, not in doubt from an earlier
   * attempt. True when the row left the table (delivered or dropped).
   */
  async #attempt(entry: OutboxEntry, marked = false): Promise<boolean> {
    const { database, clock, logger } = this.#options;
    if (entry.inDoubtAt !== null && !marked) {
      await this.#check(entry, entry.inDoubtAt);
      return false;
    }
    const delivery = { ...(entry.delivery as OutboundDelivery), outboxId: entry.rowId };
    const attemptedAt = marked ? entry.inDoubtAt! : clock.now();
    // Marked before it goes: if this process dies (or stops) while the send is out, the next
    // start finds the mark and asks the platform before sending it again.
    if (!marked) database.batch(() => database.outbox.setInDoubt(entry.rowId, attemptedAt));
    try {
      await database.committed();
    } catch {
      return false; // the row, or its mark, was not stored: the loop reads the table again (`add` told the sender of a lost row)
    }
    let messageId: string;
    try {
      ({ messageId } = await this.#options.sink().deliver(delivery));
    } catch (error) {
      if (!database.isOpen) return false;
      const reason = describeError(error);
      const kind = deliveryFailureOf(error);
      if (kind === 'in_doubt') {
        if (this.#options.sink().confirm === undefined) {
          this.#deliveredInDoubt(entry, reason);
          return true;
        }
        // Looked up on the platform before anything is sent again (next turn of the loop).
        logger.info({ stream_id: entry.streamId, outbox_id: entry.rowId, reason }, `a reply went out but no answer came (${reason}); asking the platform whether it has it`);
        database.outbox.setInDoubt(entry.rowId, attemptedAt, reason);
        return false;
      }
      database.outbox.setInDoubt(entry.rowId, null); // nothing went out
      if (kind === 'refused') {
        this.#drop(entry, `the platform refused it: ${reason}`);
        return true;
      }
      await this.#retryLater(entry, reason);
      return false;
    }
    if (!database.isOpen) return false;
    this.#delivered(entry, messageId, true);
    return true;
  }

  /**
   * A delivery in doubt: the platform's history says whether it has it. Found: delivered,
   * with the platform's id. Missing: sent again now. The platform cannot tell: taken as
   * delivered (a reply twice is worse than a warning). No connection: asked again later.
   */
  async #check(entry: OutboxEntry, since: number): Promise<void> {
    const { database, logger, clock } = this.#options;
    const askAt = since + this.#retry.confirmAfterMs;
    if (clock.now() < askAt) {
      await this.#sleep(askAt - clock.now(), false);
      return; // the loop comes back to it
    }
    const sink = this.#options.sink();
    const delivery = { ...(entry.delivery as OutboundDelivery), outboxId: entry.rowId };
    if (sink.confirm === undefined) {
      this.#deliveredInDoubt(entry, entry.lastError ?? 'no answer came');
      return;
    }
    const knownMessageIds = database.messages
      .history(entry.streamId, 50)
      .filter((message) => message.direction === 'outbound')
      .map((message) => message.messageId);
    let check;
    try {
      check = await sink.confirm({ delivery, sinceMs: since, knownMessageIds });
    } catch (error) {
      if (!database.isOpen) return;
      if (deliveryFailureOf(error) !== 'retry') {
        check = { status: 'unknown' as const, reason: describeError(error) };
      } else {
        await this.#retryLater(entry, describeError(error));
        return;
      }
    }
    if (!database.isOpen) return;
    switch (check.status) {
      case 'delivered':
        logger.info({ stream_id: entry.streamId, outbox_id: entry.rowId, message_id: check.messageId }, 'the platform has the reply that was in doubt; it is not sent again');
        this.#delivered(entry, check.messageId, true);
        return;
      case 'missing':
        logger.info({ stream_id: entry.streamId, outbox_id: entry.rowId }, 'the platform does not have the reply that was in doubt; sending it again');
        database.outbox.setInDoubt(entry.rowId, null);
        return;
      case 'unknown':
        this.#deliveredInDoubt(entry, `${entry.lastError ?? 'no answer came'}; the platform cannot tell (${check.reason})`);
        return;
    }
  }

  /** Counts a failed try, tells a waiting sender it is queued, and waits before the next (or until woken). */
  async #retryLater(entry: OutboxEntry, reason: string): Promise<void> {
    const { database, clock, logger } = this.#options;
    database.outbox.recordFailure(entry.rowId, reason);
    const attempts = entry.attempts + 1;
    const delayMs = Math.min(this.#retry.initialMs * 2 ** Math.min(attempts - 1, 20), this.#retry.maxMs, Math.max(0, entry.deadlineAt - clock.now()));
    (attempts === 1 ? logger.warn : logger.debug).call(
      logger,
      { stream_id: entry.streamId, outbox_id: entry.rowId, attempts, retry_in_ms: delayMs, reason },
      `a reply could not be delivered yet (${reason}); it stays in the outbox and is tried again`,
    );
    this.#settleFirst(entry.rowId, { status: 'queued', reason, outboxId: entry.rowId });
    await this.#sleep(delayMs, true);
  }

  #deliveredInDoubt(entry: OutboxEntry, reason: string): void {
    this.#options.logger.warn(
      { stream_id: entry.streamId, outbox_id: entry.rowId, reason },
      `a reply may or may not have reached the platform (${reason}); it is not sent again, so nobody gets it twice: ${preview((entry.delivery as OutboundDelivery).content)}`,
    );
    this.#delivered(entry, `unconfirmed-${entry.rowId}`, false);
  }

  #delivered(entry: OutboxEntry, messageId: string, confirmed: boolean): void {
    const message: Message = { ...(entry.message as Message), messageId, time: this.#options.clock.now() / 1000 };
    this.#leave(entry, message);
    this.#settleFirst(entry.rowId, { status: 'sent', message });
    this.#settled({ status: 'delivered', message, confirmed });
  }

  #drop(entry: OutboxEntry, reason: string, level: 'warn' | 'info' = 'warn'): void {
    const { logger } = this.#options;
    const original = entry.message as Message;
    const message: Message = {
      ...original,
      messageId: `undelivered-${entry.rowId}`,
      processedPlainText: `（未送达）${original.processedPlainText}`,
      extra: { ...original.extra, undelivered: true, undelivered_reason: reason },
    };
    this.#leave(entry, message);
    logger[level](
      { stream_id: entry.streamId, outbox_id: entry.rowId, reason, attempts: entry.attempts },
      `a reply to stream ${entry.streamId.slice(0, 12)} was dropped, ${reason}: ${preview(original.content)}`,
    );
    this.#settleFirst(entry.rowId, { status: 'failed', reason });
    this.#settled({ status: 'dropped', message, reason });
  }

  /**
   * The row leaves the outbox and its message is stored as sent (or undelivered), in one
   * transaction; the stream's last activity counts the bot's own words too ("quiet for N
   * minutes" asks about everyone in the chat).
   */
  #leave(entry: OutboxEntry, message: Message): void {
    const { database } = this.#options;
    // Batched: nothing waits on it. Lost in a crash, the row is still in the table, marked in
    // doubt, and the next start asks the platform before sending it again.
    database.batch(() => {
      database.outbox.remove(entry.rowId);
      database.messages.insertOutbound(message);
      database.streams.touch(message.streamId, message.time);
    });
  }

  /** The batch holding a new row could not be committed: the reply is gone; the log keeps its text (its sender hears it failed). */
  #notStored(outboxId: number, reply: QueuedReply, error: unknown): string {
    const reason = `it could not be stored: ${describeError(error)}`;
    this.#options.logger.error({ stream_id: reply.streamId, outbox_id: outboxId, reason }, `a reply to stream ${reply.streamId.slice(0, 12)} was dropped, ${reason}: ${preview(reply.delivery.content)}`);
    return reason;
  }

  #settleFirst(outboxId: number, attempt: FirstAttempt): void {
    const resolve = this.#firstAttempts.get(outboxId);
    if (resolve === undefined) return;
    this.#firstAttempts.delete(outboxId);
    resolve(attempt);
  }

  #settled(settled: Settled): void {
    try {
      this.#options.onSettled?.(settled);
    } catch (error) {
      this.#options.logger.error({ stream_id: settled.message.streamId, error: describeError(error) }, 'updating the stream after a delivery failed');
    }
  }

  /** Waits `ms` on the clock; `wakeable` lets `wake()` (and `close()`) end it early. */
  #sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      const { clock } = this.#options;
      const done = (): void => {
        clock.clearTimeout(timer);
        this.#sleepers.delete(wakeUp);
        resolve();
      };
      const wakeUp = (): void => {
        if (wakeable || this.#closed) done();
      };
      const timer = clock.setTimeout(done, ms);
      this.#sleepers.add(wakeUp);
    });
  }
}

/** A stream's running drain. */
interface Worker {
  done: Promise<void>;
  /** A row was added to the stream while this worker ran: it must read the table for it. */
  added: boolean;
}

/** The first characters of a reply, for a log line a person can place. */
function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return `「${flat.length > 30 ? `${flat.slice(0, 30)}…` : flat}」`;
}
