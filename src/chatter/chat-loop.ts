import type { Message } from '../chat/message.js';
import type { ChatterMetadata } from '../kernel/components/component-metadata.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { StreamStateRepository } from '../storage/stream-state-repository.js';
import { BaseChatter, bindChatter } from './base-chatter.js';
import type { ChatRuntime } from './chat-runtime.js';
import { Failure } from './chatter-result.js';
import type { ChatterGenerator, ChatterRun } from './chatter-run.js';
import { type DriverState, StreamDriver } from './stream-driver.js';
import type { StreamTiming } from './stream-timing.js';
import type { WaitResumeEvent } from './wait-resume-event.js';

/** How a step's flushed reads are held and then written or given back (the host's StreamManager). */
export interface StepReads {
  hold(streamId: string): void;
  commit(streamId: string): void;
  release(streamId: string): void;
}

export interface ChatLoopOptions {
  runtime: ChatRuntime;
  states: StreamStateRepository;
  timing?: Partial<StreamTiming>;
  reads?: StepReads;
}

/**
 * One driver per active stream. Routes new messages and external resume events to them,
 * resolves each stream's chatter (the configured default, else the first registered chatter
 * that serves the stream's chat type), and persists waits and cooldowns.
 */
export class ChatLoop {
  readonly #options: ChatLoopOptions;
  readonly #drivers = new Map<string, StreamDriver>();
  /** The chatter each stream's current run was made from. */
  readonly #runChatters = new Map<string, string>();
  /** What was last written per stream; a state that only renews its time is not written again. */
  readonly #persisted = new Map<string, string>();

  constructor(options: ChatLoopOptions) {
    this.#options = options;
  }

  /** A delivered inbound message: wake its stream. */
  onMessage(message: Message): void {
    const direct = message.chatType === 'private' || message.extra.mentions_bot === true;
    this.#driver(message.streamId).notifyMessage({ direct });
  }

  /** An external resume (`sub_agent`, `internal_context`, a plugin's own source) for a stream. */
  resume(streamId: string, event: WaitResumeEvent): void {
    this.#driver(streamId).resume(event);
  }

  /** After a restart: cooldowns come back from storage, and streams with unread messages are woken. */
  restore(streamsWithUnread: readonly string[]): void {
    for (const streamId of streamsWithUnread) this.#driver(streamId).schedule(0);
  }

  /**
   * A chatter was registered (a plugin loaded or was switched back on): streams with unread
   * messages, a failed run's among them, are stepped now instead of at their backoff's retry.
   */
  wakeUnread(streamsWithUnread: readonly string[]): void {
    for (const streamId of streamsWithUnread) this.#driver(streamId).retryNow();
  }

  /** A chatter was unregistered: the runs made from it end, so no unloaded code answers. */
  async chatterRemoved(signature: string): Promise<void> {
    const ending = [...this.#runChatters].filter(([, chatter]) => chatter === signature).map(([streamId]) => streamId);
    for (const streamId of ending) this.#runChatters.delete(streamId);
    await Promise.all(ending.map((streamId) => this.#drivers.get(streamId)?.endRun(`its chatter ${signature} was unloaded`)));
  }

  /** The driver of a stream, if it has one. */
  driverOf(streamId: string): StreamDriver | undefined {
    return this.#drivers.get(streamId);
  }

  /** True while some stream is in the middle of a chatter step (thinking, typing, sending). */
  get busy(): boolean {
    for (const driver of this.#drivers.values()) if (driver.busy) return true;
    return false;
  }

  get size(): number {
    return this.#drivers.size;
  }

  /**
   * Closes the drivers of streams quiet for `idleMs` (see `StreamDriver.isIdleFor`) for which
   * `canEvict` agrees (nothing unread, nothing left to send), freeing their runs. Returns
   * the stream ids. A stream comes back on its next message: a cooldown from storage, the
   * conversation from its stored history.
   */
  evictIdle(idleMs: number, canEvict: (streamId: string) => boolean): string[] {
    const evicted: string[] = [];
    for (const [streamId, driver] of this.#drivers) {
      if (!driver.isIdleFor(idleMs) || !canEvict(streamId)) continue;
      this.#drivers.delete(streamId);
      this.#persisted.delete(streamId);
      this.#runChatters.delete(streamId);
      void driver.close(0);
      evicted.push(streamId);
    }
    return evicted;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#drivers.values()].map((driver) => driver.close()));
    this.#drivers.clear();
  }

  #driver(streamId: string): StreamDriver {
    let driver = this.#drivers.get(streamId);
    if (driver !== undefined) return driver;
    const { runtime, states } = this.#options;
    const stored = states.get(streamId);
    const initialState: DriverState | undefined =
      stored?.kind === 'stop' && stored.stopUntil !== null && stored.stopUntil > runtime.clock.now()
        ? { kind: 'stopped', until: stored.stopUntil, wakeEnabled: stored.wakeProbability > 0, wakeProbability: stored.wakeProbability }
        : undefined;
    // Resolved for each new run: a stream first seen while no chatter was loaded gets one later.
    driver = new StreamDriver({
      streamId,
      chatterName: () => this.#runChatters.get(streamId)?.split(':')[2] ?? this.#chatterSignature(streamId)?.split(':')[2] ?? 'none',
      createChatter: (signal) => this.#createChatter(streamId, this.#chatterSignature(streamId), signal),
      unreadCount: () => runtime.streams.getStream(streamId)?.unreads.length ?? runtime.streams.fetchUnreads(streamId).length,
      bus: runtime.bus,
      clock: runtime.clock,
      random: runtime.random,
      logger: runtime.logger,
      timing: {
        messageBufferMs: runtime.bot.chat.message_buffer_seconds * 1000,
        stepTimeoutMs: runtime.bot.chat.step_timeout_seconds * 1000,
        failureRetryMs: runtime.bot.chat.failure_retry_seconds * 1000,
        failureRetryMaxMs: runtime.bot.chat.failure_retry_max_seconds * 1000,
        ...this.#options.timing,
      },
      ...(initialState === undefined ? {} : { initialState }),
      onStateChange: (state) => this.#persist(streamId, state),
      ...(this.#options.reads === undefined ? {} : stepHooks(this.#options.reads, streamId)),
    });
    this.#drivers.set(streamId, driver);
    return driver;
  }

  #chatterSignature(streamId: string): string | undefined {
    const { runtime } = this.#options;
    const preferred = runtime.bot.chat.default_chatter;
    if (runtime.registry.record(preferred)?.kind === 'chatter') return preferred;
    const chatType = runtime.streams.activateStream(streamId)?.chatType;
    const fallback = runtime.registry.list({ kind: 'chatter' }).find((record) => {
      const types = (record.metadata as ChatterMetadata).chatTypes;
      return chatType === undefined || types.length === 0 || types.includes(chatType);
    });
    return fallback?.signature;
  }

  #createChatter(streamId: string, signature: string | undefined, signal: AbortSignal): ChatterRun {
    const { runtime } = this.#options;
    const chatter = signature === undefined ? undefined : runtime.registry.get<BaseChatter>(signature);
    if (!(chatter instanceof BaseChatter)) {
      const reason =
        signature === undefined
          ? 'no chatter is registered for this stream (is the default chatter plugin loaded?)'
          : `${signature} is not a BaseChatter`;
      runtime.logger.error({ stream_id: streamId, chatter: signature }, reason);
      return { execute: () => failing(reason) };
    }
    bindChatter(chatter, { streamId, runtime, signal });
    this.#runChatters.set(streamId, signature!);
    return chatter;
  }

  #persist(streamId: string, state: DriverState): void {
    const { states, runtime } = this.#options;
    const kind = state.kind === 'waiting' ? 'wait' : state.kind === 'stopped' ? 'stop' : 'idle';
    const waitUntil = state.kind === 'waiting' && state.time !== undefined ? state.since + state.time * 1000 : null;
    const stopUntil = state.kind === 'stopped' ? state.until : null;
    const wakeProbability = state.kind === 'stopped' && state.wakeEnabled ? state.wakeProbability : 0;
    // Every turn of a conversation ends in the same untimed wait: one write, not one per turn.
    const key = `${kind}|${waitUntil}|${stopUntil}|${wakeProbability}`;
    if (this.#persisted.get(streamId) === key) return;
    try {
      states.set({ streamId, kind, waitUntil, stopUntil, wakeProbability, updatedAt: runtime.clock.now() });
      this.#persisted.set(streamId, key);
    } catch (error) {
      runtime.logger.error({ stream_id: streamId, error: describeError(error) }, 'saving the stream state failed');
    }
  }
}

function stepHooks(reads: StepReads, streamId: string): { onStepStart(): void; onStepEnd(ok: boolean): void } {
  return {
    onStepStart: () => reads.hold(streamId),
    onStepEnd: (ok) => (ok ? reads.commit(streamId) : reads.release(streamId)),
  };
}

async function* failing(reason: string): ChatterGenerator {
  yield new Failure(reason);
}
