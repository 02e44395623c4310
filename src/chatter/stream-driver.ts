import { describeError } from '../kernel/errors/describe-error.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock, TimerHandle } from '../kernel/time/clock.js';
import type { Random } from '../kernel/time/random.js';
import { Failure, isChatterResult, Success, type ChatterResult } from './chatter-result.js';
import type { ChatterGenerator, ChatterRun } from './chatter-run.js';
import './chatter-step-payloads.js';
import { DEFAULT_STREAM_TIMING, type StreamTiming } from './stream-timing.js';
import { WaitResumeEvent } from './wait-resume-event.js';
import { TimeoutReachedError, withTimeout } from '../kernel/time/with-timeout.js';

/** Where a stream's conversation stands between steps. */
export type DriverState =
  | { readonly kind: 'idle' }
  /** A chatter yielded Wait; `time` seconds or a message resumes it. */
  | { readonly kind: 'waiting'; readonly time: number | undefined; readonly since: number }
  /** A chatter yielded Stop: no new run before `until` (epoch ms) and a new message. */
  | { readonly kind: 'stopped'; readonly until: number; readonly wakeEnabled: boolean; readonly wakeProbability: number };

/** What the driver knows of a new message, for the wait and wake rules. */
export interface MessageNotice {
  /** A private chat, or the bot was @-mentioned: may wake a stopped stream early. */
  direct: boolean;
}

export interface StreamDriverOptions {
  streamId: string;
  /** The chatter's name, for events and logs; read at each step (a stream's chatter can change). */
  chatterName: string | (() => string);
  /**
   * A chatter for a new run. `signal` aborts when the driver abandons the run (a step timed
   * out, the watchdog fired, the loop closed) or the run ends, so its late work is dropped.
   */
  createChatter: (signal: AbortSignal) => ChatterRun;
  /** How many unread messages the stream holds now. */
  unreadCount: () => number;
  bus: EventBus;
  clock: Clock;
  random: Random;
  logger: Logger;
  timing?: Partial<StreamTiming>;
  /** Called whenever the state changes (the host persists waits and cooldowns). */
  onStateChange?: (state: DriverState) => void;
  /** The state to start in (a cooldown restored after a restart). */
  initialState?: DriverState;
  /** A chatter step is about to run (the host holds the stream's flushed reads). */
  onStepStart?: () => void;
  /**
   * A step ended: `ok` when it yielded anything but Failure (the held reads are written),
   * false when it failed, timed out or was abandoned (they become unread again).
   */
  onStepEnd?: (ok: boolean) => void;
}

/**
 * Drives one stream's chatter: decides when to start a run or resume a waiting one, steps
 * the chatter's generator under a timeout, and applies what it yields.
 *
 * - `Wait()` resumes on a new message only; `Wait(t)` on a message, or after t seconds with
 *   source `timer`.
 * - `Stop(t)` ends the run; the next starts only when t has passed and a new message came,
 *   unless a direct message (private, or @ the bot) wins the configured wake chance.
 * - An external resume (`sub_agent`, `internal_context`, any string) always wins.
 * - While the newest message is younger than the buffer, a run waits (a few ticks at most).
 * - `on_chatter_step` (continue = false skips the tick) and `after_chatter_step` frame each step.
 * - A run that ends in Failure while messages are still unread (the model endpoint was down,
 *   say) is tried again after `failureRetryMs`, doubled at each failure in a row up to
 *   `failureRetryMaxMs`; a new message tries at once. Any other result resets the backoff.
 * - A failure whose error (or a cause of it) carries `retryAt` (epoch ms; a spent daily
 *   token budget, say) says when trying again can help: the stream waits until then instead
 *   of backing off, new messages stay unread too, and the wait is logged once.
 *
 * All timing reads the injected clock, all chance the injected random source.
 */
export class StreamDriver {
  readonly streamId: string;
  readonly #options: StreamDriverOptions;
  readonly #timing: StreamTiming;
  #state: DriverState;
  #generator: ChatterGenerator | undefined;
  /** Aborts the current run's signal. */
  #runAbort: AbortController | undefined;
  #pendingResume: WaitResumeEvent | undefined;
  #messagesSinceStep = 0;
  #directSinceStep = false;
  #lastMessageAt: number | undefined;
  #bufferSkips = 0;
  #tick = 0;
  #running = false;
  #again = false;
  #tickStartedAt = 0;
  #timer: TimerHandle | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #closed = false;
  #currentTick: Promise<void> | undefined;
  /** Bumped when a step is abandoned: a late result of the old generator is ignored. */
  #generation = 0;
  /** Runs in a row that ended in Failure; sets the retry backoff. */
  #failuresInARow = 0;
  /** When a failed run's unreads are tried again (epoch ms). */
  #retryAt: number | undefined;
  /** The failure named `#retryAt` itself: new messages wait for it too. */
  #retryFirm = false;
  readonly #createdAt: number;

  constructor(options: StreamDriverOptions) {
    this.streamId = options.streamId;
    this.#options = options;
    this.#timing = { ...DEFAULT_STREAM_TIMING, ...options.timing };
    this.#state = options.initialState ?? { kind: 'idle' };
    this.#createdAt = options.clock.now();
  }

  get state(): DriverState {
    return this.#state;
  }

  /** True while a tick (and so possibly a chatter step) is in progress. */
  get busy(): boolean {
    return this.#running;
  }

  /**
   * Whether the stream has been quiet for `idleMs` (no message, no step) with nothing due:
   * no step running, no resume or retry pending, no timed wait still to end. Such a driver
   * can be closed to free memory; its stored state brings the stream back on its next message.
   */
  isIdleFor(idleMs: number): boolean {
    if (this.#running || this.#pendingResume !== undefined || this.#retryAt !== undefined) return false;
    const now = this.#options.clock.now();
    const lastActivity = Math.max(this.#lastMessageAt ?? 0, this.#tickStartedAt, this.#createdAt);
    if (now - lastActivity < idleMs) return false;
    const state = this.#state;
    return !(state.kind === 'waiting' && state.time !== undefined && now < state.since + state.time * 1000);
  }

  /** A new message arrived in the stream. */
  notifyMessage(notice: MessageNotice): void {
    this.#messagesSinceStep += 1;
    this.#directSinceStep ||= notice.direct;
    this.#lastMessageAt = this.#options.clock.now();
    this.#bufferSkips = 0;
    this.schedule(0);
  }

  /** Resumes a waiting chatter (or starts one) with an event from outside: it always wins. */
  resume(event: WaitResumeEvent): void {
    this.#pendingResume = event;
    this.schedule(0);
  }

  /**
   * A chatter came (back): the unreads a failed run left are tried now, not at the next
   * retry of the backoff.
   */
  retryNow(): void {
    this.#retryAt = undefined;
    this.#retryFirm = false;
    this.#failuresInARow = 0;
    this.schedule(0);
  }

  /**
   * The chatter of the current run is gone (its plugin unloaded): the run ends and the stream
   * is idle, so its next message (or `retryNow`) starts a new run with the chatter there is then.
   */
  async endRun(reason: string): Promise<void> {
    if (this.#generator === undefined) return;
    if (this.#running) {
      this.#generation += 1;
      this.#stepHook(() => this.#options.onStepEnd?.(false));
      this.#running = false;
    }
    await this.#dropGenerator(reason);
    this.#setState({ kind: 'idle' });
  }

  #chatterName(): string {
    const name = this.#options.chatterName;
    return typeof name === 'function' ? name() : name;
  }

  /** Runs a tick `delayMs` from now (an earlier request wins). */
  schedule(delayMs: number): void {
    if (this.#closed) return;
    const clock = this.#options.clock;
    const at = clock.now() + Math.max(0, delayMs);
    if (at >= this.#timerAt) return;
    if (this.#timer !== undefined) clock.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = clock.setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      void this.tick();
    }, delayMs);
  }

  /**
   * Stops the driver: no more ticks; a step in progress may finish (up to `graceMs`), then
   * the generator is closed. State changes after closing are not reported.
   */
  async close(graceMs = 5_000): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const current = this.#currentTick;
    if (current !== undefined) {
      const controller = new AbortController();
      await Promise.race([current, this.#options.clock.sleep(graceMs, controller.signal).catch(() => undefined)]);
      controller.abort();
    }
    await this.#dropGenerator('the stream loop closed');
  }

  /** One pass of the rules; steps the chatter when they say so. Never throws. */
  tick(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      this.#checkWatchdog();
      return Promise.resolve();
    }
    const tick = this.#runTick();
    this.#currentTick = tick;
    return tick;
  }

  async #runTick(): Promise<void> {
    this.#running = true;
    this.#tickStartedAt = this.#options.clock.now();
    const generation = this.#generation;
    // While this tick runs, the watchdog looks at it every interval; a finished tick leaves
    // no timer behind, so a quiet stream costs nothing.
    const stopWatching = this.#watch(generation);
    try {
      const resume = this.#decide();
      if (resume !== undefined) await this.#step(resume === 'new' ? undefined : resume, generation);
    } catch (error) {
      this.#options.logger.error({ stream_id: this.streamId, error: describeError(error) }, 'stream loop tick failed');
    } finally {
      stopWatching();
      if (generation === this.#generation) this.#running = false;
      this.#afterTick();
    }
  }

  /** Which resume to step with: an event, `'new'` for a fresh run, or undefined for no step. */
  #decide(): WaitResumeEvent | 'new' | undefined {
    const now = this.#options.clock.now();
    const pending = this.#pendingResume;
    if (pending !== undefined) {
      this.#pendingResume = undefined;
      return this.#generator === undefined ? 'new' : pending;
    }
    const state = this.#state;
    let decision: WaitResumeEvent | 'new' | undefined;
    switch (state.kind) {
      case 'idle':
        // After a failed run, its unreads wait for the retry moment; a new message goes at once,
        // unless the failure itself said when to come back.
        if (this.#retryAt !== undefined && now < this.#retryAt && (this.#retryFirm || this.#messagesSinceStep === 0)) break;
        decision = this.#options.unreadCount() > 0 ? 'new' : undefined;
        break;
      case 'waiting':
        if (this.#messagesSinceStep > 0) decision = this.#resumeEvent('message', state.time);
        else if (state.time !== undefined && now >= state.since + state.time * 1000) decision = this.#resumeEvent('timer', state.time);
        break;
      case 'stopped':
        if (this.#messagesSinceStep === 0) break;
        if (now >= state.until) decision = 'new';
        else if (state.wakeEnabled && this.#directSinceStep) {
          this.#directSinceStep = false; // one draw per direct message
          if (this.#options.random.next() < state.wakeProbability) decision = 'new';
        }
        break;
      default: {
        const unknown: never = state;
        throw new Error(`unknown driver state ${JSON.stringify(unknown)}`);
      }
    }
    if (decision === undefined) return undefined;
    // Message-triggered steps wait for the burst to settle, a few ticks at most.
    const isTimer = decision !== 'new' && decision.source === 'timer';
    const lastMessageAt = this.#lastMessageAt;
    if (!isTimer && lastMessageAt !== undefined && now - lastMessageAt < this.#timing.messageBufferMs && this.#bufferSkips < this.#timing.maxBufferSkips) {
      this.#bufferSkips += 1;
      this.schedule(lastMessageAt + this.#timing.messageBufferMs - now);
      return undefined;
    }
    return decision;
  }

  #resumeEvent(source: 'message' | 'timer', waitTime: number | undefined): WaitResumeEvent {
    return new WaitResumeEvent(source, { waitTime: waitTime ?? 0, unreadCount: this.#options.unreadCount() });
  }

  async #step(resume: WaitResumeEvent | undefined, generation: number): Promise<void> {
    const { bus } = this.#options;
    const chatterName = this.#chatterName();
    this.#tick += 1;
    const gate = await bus.publish('on_chatter_step', {
      stream_id: this.streamId,
      chatter_name: chatterName,
      tick: this.#tick,
      unread_count: this.#options.unreadCount(),
      source: resume?.source ?? 'new',
      continue: true,
    });
    if (gate.params.continue === false) {
      if (resume !== undefined && resume.source !== 'message' && resume.source !== 'timer') this.#pendingResume ??= resume;
      return;
    }
    this.#messagesSinceStep = 0;
    this.#directSinceStep = false;
    this.#bufferSkips = 0;

    let result: ChatterResult;
    this.#stepHook(() => this.#options.onStepStart?.());
    try {
      const next = await this.#next(resume);
      if (generation !== this.#generation) return; // the watchdog ended this step already
      result = next ?? new Success('the chatter finished');
    } catch (error) {
      if (generation !== this.#generation) return;
      const timedOut = error instanceof TimeoutReachedError;
      this.#options.logger.error({ stream_id: this.streamId, chatter: chatterName, error: describeError(error) }, timedOut ? 'chatter step timed out; the run is abandoned' : 'chatter step threw; the run ends');
      result = new Failure(timedOut ? `step timed out after ${this.#timing.stepTimeoutMs} ms` : describeError(error), error);
    }
    this.#stepHook(() => this.#options.onStepEnd?.(result.kind !== 'failure'));
    await this.#apply(result);
    const usedTools = result.stepData['used_tools'];
    await bus.publish('after_chatter_step', {
      stream_id: this.streamId,
      chatter_name: chatterName,
      result_type: result.kind,
      result,
      step_data: result.stepData,
      used_tools: Array.isArray(usedTools) ? usedTools.map(String) : [],
    });
  }

  /** The next result of the run (starting one when needed), under the step timeout. */
  async #next(resume: WaitResumeEvent | undefined): Promise<ChatterResult | undefined> {
    let generator = this.#generator;
    let step: Promise<IteratorResult<ChatterResult, void>>;
    if (generator === undefined) {
      const runAbort = new AbortController();
      this.#runAbort = runAbort;
      generator = this.#options.createChatter(runAbort.signal).execute();
      this.#generator = generator;
      step = generator.next(); // a fresh generator is primed: it runs to its first yield
    } else {
      step = generator.next(resume);
    }
    const outcome = await withTimeout(this.#options.clock, step, this.#timing.stepTimeoutMs);
    if (outcome.done === true) {
      this.#generator = undefined;
      this.#abortRun('the run finished');
      return undefined;
    }
    if (!isChatterResult(outcome.value)) throw new TypeError(`the chatter yielded ${describeError(outcome.value)}, not Wait, Success, Failure or Stop`);
    return outcome.value;
  }

  async #apply(result: ChatterResult): Promise<void> {
    const now = this.#options.clock.now();
    if (result.kind !== 'failure') {
      // Anything but a failure ends a run of failures: no backoff is pending.
      this.#failuresInARow = 0;
      this.#retryAt = undefined;
      this.#retryFirm = false;
    }
    switch (result.kind) {
      case 'wait':
        this.#setState({ kind: 'waiting', time: result.time, since: now });
        if (result.time !== undefined) this.schedule(result.time * 1000);
        return;
      case 'success':
        await this.#dropGenerator();
        this.#setState({ kind: 'idle' });
        return;
      case 'failure':
        this.#failuresInARow += 1;
        await this.#dropGenerator(result.message);
        this.#setState({ kind: 'idle' });
        this.#scheduleRetry(result);
        return;
      case 'stop':
        await this.#dropGenerator();
        this.#setState({
          kind: 'stopped',
          until: now + result.time * 1000,
          wakeEnabled: result.directMessageWakeEnabled,
          wakeProbability: result.directMessageWakeProbability,
        });
        return;
      default: {
        const unknown: never = result;
        throw new Error(`unknown chatter result ${JSON.stringify(unknown)}`);
      }
    }
  }

  #afterTick(): void {
    if (this.#closed) return;
    if (this.#again) {
      this.#again = false;
      this.schedule(0);
      return;
    }
    // Keep the next due moment armed: a timed wait ends, and a message that came during a
    // cooldown starts a run when the cooldown ends.
    const state = this.#state;
    const now = this.#options.clock.now();
    if (state.kind === 'waiting' && state.time !== undefined) this.schedule(Math.max(0, state.since + state.time * 1000 - now));
    else if (state.kind === 'stopped' && this.#messagesSinceStep > 0) this.schedule(Math.max(0, state.until - now));
    // A message's tick replaced the retry's timer: arm it again.
    else if (state.kind === 'idle' && this.#retryAt !== undefined) this.schedule(Math.max(0, this.#retryAt - now));
  }

  /** After a failed run: logs why, and comes back later for the messages it left unread. */
  #scheduleRetry(failure: Failure): void {
    const unread = this.#options.unreadCount();
    const where = { stream_id: this.streamId, chatter: this.#chatterName(), reason: failure.message, failures_in_a_row: this.#failuresInARow };
    this.#retryAt = undefined;
    this.#retryFirm = false;
    const now = this.#options.clock.now();
    const retryAt = retryAtOf(failure);
    if (retryAt !== undefined && retryAt > now) {
      // Trying sooner cannot help: one line now, then quiet until the moment the failure named.
      const until = new Date(retryAt).toISOString();
      const waiting = unread === 0 ? 'new messages wait' : `its ${unread} unread message(s) and any new ones wait`;
      this.#options.logger.warn({ ...where, unread, retry_at: until }, `the run failed; ${waiting} until ${until}, when trying again can succeed`);
      this.#retryAt = retryAt;
      this.#retryFirm = true;
      this.schedule(retryAt - now);
      return;
    }
    if (unread === 0) {
      this.#options.logger.warn(where, 'the run failed; nothing is left unread');
      return;
    }
    const { failureRetryMs, failureRetryMaxMs } = this.#timing;
    const delayMs = Math.min(failureRetryMs * 2 ** (this.#failuresInARow - 1), failureRetryMaxMs);
    this.#options.logger.warn({ ...where, unread, retry_in_ms: delayMs }, `the run failed; its ${unread} unread message(s) are tried again in ${delayMs / 1000} s`);
    this.#retryAt = now + delayMs;
    this.schedule(delayMs);
  }

  /** Checks the running tick every interval until the returned function is called. */
  #watch(generation: number): () => void {
    const { clock } = this.#options;
    let timer: TimerHandle | undefined;
    const arm = (): void => {
      timer = clock.setTimeout(() => {
        timer = undefined;
        if (this.#closed || !this.#running || generation !== this.#generation) return;
        this.#checkWatchdog();
        if (this.#running && generation === this.#generation) arm();
      }, this.#timing.tickIntervalMs);
    };
    arm();
    return () => {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
    };
  }

  #checkWatchdog(): void {
    const elapsed = this.#options.clock.now() - this.#tickStartedAt;
    if (elapsed >= this.#timing.watchdogRestartMs) {
      this.#options.logger.error({ stream_id: this.streamId, elapsed_ms: elapsed }, 'stream loop stuck; abandoning the run and starting afresh');
      this.#generation += 1;
      this.#stepHook(() => this.#options.onStepEnd?.(false));
      this.#running = false;
      void this.#dropGenerator('the watchdog abandoned it');
      this.#setState({ kind: 'idle' });
      this.schedule(0);
    } else if (elapsed >= this.#timing.watchdogWarnMs) {
      this.#options.logger.warn({ stream_id: this.streamId, elapsed_ms: elapsed }, 'stream loop tick is taking long');
    }
  }

  /** Runs a step hook; a hook that throws is logged, never breaks the loop. */
  #stepHook(hook: () => void): void {
    try {
      hook();
    } catch (error) {
      this.#options.logger.error({ stream_id: this.streamId, error: describeError(error) }, 'a stream step hook failed');
    }
  }

  #setState(state: DriverState): void {
    this.#state = state;
    if (this.#closed) return;
    try {
      this.#options.onStateChange?.(state);
    } catch (error) {
      this.#options.logger.error({ stream_id: this.streamId, error: describeError(error) }, 'saving the stream state failed');
    }
  }

  #abortRun(reason: string): void {
    const runAbort = this.#runAbort;
    this.#runAbort = undefined;
    runAbort?.abort(new Error(`the stream loop ended this run: ${reason}`));
  }

  async #dropGenerator(reason = 'the run ended'): Promise<void> {
    const generator = this.#generator;
    this.#generator = undefined;
    this.#abortRun(reason);
    if (generator === undefined) return;
    try {
      // Closing a generator that is still running throws; it is abandoned either way.
      await Promise.race([generator.return(undefined), Promise.resolve()]);
    } catch {
      // already running or already closed
    }
  }
}

/**
 * When a failure says trying again can succeed: a finite `retryAt` (epoch ms) on its error
 * or on a cause of it (a chatter may wrap the error it caught).
 */
function retryAtOf(failure: Failure): number | undefined {
  let error: unknown = failure.error;
  for (let depth = 0; depth < 5 && typeof error === 'object' && error !== null; depth += 1) {
    const retryAt = (error as { retryAt?: unknown }).retryAt;
    if (typeof retryAt === 'number' && Number.isFinite(retryAt)) return retryAt;
    error = (error as { cause?: unknown }).cause;
  }
  return undefined;
}
