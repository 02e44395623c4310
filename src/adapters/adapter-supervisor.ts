import { type DeliveryFailureKind, withDeliveryFailure } from '../chat/delivery-failure.js';
import type { DeliveryCheck, DeliveryCheckRequest, OutboundDelivery, OutboundSink } from '../chat/outbound-sink.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock, TimerHandle } from '../kernel/time/clock.js';
import type { AdapterBotInfo, AdapterStatus, InboundAck } from './adapter-context.js';
import { type AdapterIsolation, type AdapterRunner, startAdapterRunner } from './adapter-runner.js';
import { AdapterError } from './errors/adapter-error.js';
import type { ResolvedAdapter } from './find-adapter.js';
import { AdapterToHostSchema, type AdapterToHostParsed, type HostToAdapter } from './ipc-protocol.js';

export interface RestartPolicy {
  /** The first restart waits this long; each further one doubles it. Default 500 ms. */
  initialDelayMs: number;
  /** The longest wait between restarts. Default 30 s. */
  maxDelayMs: number;
  /** A process that stayed up this long resets the delay to the first one. Default 60 s. */
  resetAfterMs: number;
}

/** What the adapter process is started with (again at every restart). */
export interface AdapterInit {
  /** The validated adapter config. */
  config: unknown;
  bot: AdapterBotInfo;
}

export interface AdapterSupervisorOptions {
  adapter: ResolvedAdapter;
  logger: Logger;
  clock: Clock;
  /** Stores one inbound message (the host's ingress) and says what became of it. */
  receive(envelope: unknown): Promise<InboundAck>;
  /** Publishes one notice or request (the host's ingress); without it, events are refused. */
  receiveEvent?(event: unknown): Promise<InboundAck>;
  /** The adapter said no more input will come (the console's stdin ended). */
  onInputClosed?(): void;
  /** The adapter's standard input: the console adapter reads the terminal (`inherit`). Default `ignore`. */
  stdin?: 'inherit' | 'ignore';
  /** Its own process (default) or a worker thread of the host's (see adapter-runner.ts). */
  isolation?: AdapterIsolation;
  restart?: Partial<RestartPolicy>;
  /** How long a send waits for the adapter to be (back) up before it fails. Default 30 s. */
  deliveryWaitMs?: number;
  /** How long `stop()` waits for the process to exit before killing it. Default 5 s. */
  stopGraceMs?: number;
}

export type SupervisorState = 'idle' | 'starting' | 'ready' | 'restarting' | 'stopping' | 'stopped';

/** What the supervisor knows, for logs and the console. */
export interface AdapterSupervisorStatus extends AdapterStatus {
  name: string;
  state: SupervisorState;
  isolation: AdapterIsolation;
  /** The adapter process's id; with isolation `thread`, the host's own. */
  pid: number | undefined;
  restarts: number;
}

interface PendingResult {
  resolve(value: unknown): void;
  reject(error: Error): void;
  what: string;
  /** The adapter began delivering it (`accepted`): if the process dies now, it is in doubt. */
  accepted: boolean;
}

/**
 * Runs one adapter in its own process and is the host's `OutboundSink` for it. Restarts a
 * process that exits unexpectedly, with a growing delay; logs every exit. Sends made while
 * the adapter is down wait for it (up to `deliveryWaitMs`). Every failed send says what it
 * means for the host's outbox (`deliveryFailure`): one the process never began is `retry`;
 * one it began (`accepted`) but did not confirm before dying is `in_doubt`, and is not
 * repeated, so nobody gets a reply twice.
 */
export class AdapterSupervisor implements OutboundSink {
  readonly #options: AdapterSupervisorOptions;
  readonly #logger: Logger;
  readonly #policy: RestartPolicy;
  #child: AdapterRunner | undefined;
  #state: SupervisorState = 'idle';
  #status: AdapterStatus = { connected: false };
  #restarts = 0;
  #nextDelayMs: number;
  #startedAt = 0;
  #restartTimer: TimerHandle | undefined;
  #canCall = false;
  #nextId = 0;
  readonly #pending = new Map<number, PendingResult>();
  #readyWaiters: { resolve(): void; reject(error: Error): void }[] = [];
  #firstStart: { resolve(): void; reject(error: Error): void } | undefined;
  #lastFatal: string | undefined;
  #exited: Promise<void> = Promise.resolve();
  #init: AdapterInit | undefined;
  #prewarmed = false;
  readonly #connectionListeners = new Set<(connected: boolean) => void>();

  constructor(options: AdapterSupervisorOptions) {
    this.#options = options;
    this.#logger = options.logger.child({ adapter: options.adapter.name });
    this.#policy = { initialDelayMs: 500, maxDelayMs: 30_000, resetAfterMs: 60_000, ...options.restart };
    this.#nextDelayMs = this.#policy.initialDelayMs;
  }

  get status(): AdapterSupervisorStatus {
    return { name: this.#options.adapter.name, state: this.#state, isolation: this.#options.isolation ?? 'process', pid: this.#child?.pid, restarts: this.#restarts, ...this.#status };
  }

  /**
   * Forks the process now, so that it loads its code while the host is still starting;
   * `start()` then only hands it the config. Optional: `start()` forks when this was not called.
   */
  prewarm(): void {
    if (this.#state !== 'idle' || this.#prewarmed) return;
    this.#prewarmed = true;
    this.#fork();
  }

  /**
   * Starts the adapter (forking its process unless `prewarm()` did) and resolves once it is
   * up. A first start that fails (the adapter throws while starting, e.g. its port is taken)
   * rejects with the adapter's reason and is not retried: that is a setup problem to show,
   * not a crash to ride out.
   */
  start(init: AdapterInit): Promise<void> {
    if (this.#state !== 'idle') return Promise.reject(new AdapterError(this.#options.adapter.name, `start() called while ${this.#state}`));
    this.#init = init;
    return new Promise<void>((resolve, reject) => {
      this.#firstStart = { resolve, reject };
      this.#state = 'starting';
      if (this.#child === undefined || !this.#child.running) this.#fork();
      this.#sendInit();
    });
  }

  /** Sends one message through the adapter (waiting for it to be up, within `deliveryWaitMs`). */
  async deliver(delivery: OutboundDelivery): Promise<{ messageId: string }> {
    const value = await this.#request('send', (id) => ({ type: 'deliver', id, delivery }));
    const messageId = (value as { messageId?: unknown } | undefined)?.messageId;
    return { messageId: typeof messageId === 'string' ? messageId : String(messageId ?? '') };
  }

  /** Asks the adapter whether the platform has a delivery left in doubt. */
  async confirm(request: DeliveryCheckRequest): Promise<DeliveryCheck> {
    const value = (await this.#request('confirm', (id) => ({ type: 'confirm', id, ...request, knownMessageIds: [...request.knownMessageIds] }))) as DeliveryCheck | undefined;
    if (value?.status === 'delivered' || value?.status === 'missing' || value?.status === 'unknown') return value;
    return { status: 'unknown', reason: 'the adapter gave no answer' };
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.#connectionListeners.add(listener);
    return () => this.#connectionListeners.delete(listener);
  }

  /**
   * Calls a platform action (OneBot `get_msg`, `set_group_add_request` …) and resolves to its
   * data; with `account`, on that account's connection only.
   */
  async call(action: string, params: Readonly<Record<string, unknown>> = {}, account?: string | null): Promise<unknown> {
    return this.#request(`action ${action}`, (id) => ({ type: 'call', id, action, params: { ...params }, ...(account === undefined || account === null ? {} : { account }) }));
  }

  /** Asks the adapter to stop, waits for the process to exit (killing it after the grace time). */
  async stop(): Promise<void> {
    if (this.#state === 'stopped' || this.#state === 'idle') {
      // A prewarmed process that was never started has nothing to finish.
      if (this.#state === 'idle') this.#child?.kill();
      this.#state = 'stopped';
      return;
    }
    this.#state = 'stopping';
    if (this.#restartTimer !== undefined) this.#options.clock.clearTimeout(this.#restartTimer);
    this.#failWaiters(this.#failure('the host is stopping', 'retry'));
    const child = this.#child;
    if (child !== undefined && child.running) {
      this.#post({ type: 'shutdown' });
      const kill = setTimeout(() => {
        this.#logger.warn(`the ${this.#options.adapter.name} adapter did not exit within ${this.#options.stopGraceMs ?? 5_000} ms; killing it`);
        child.kill(true);
      }, this.#options.stopGraceMs ?? 5_000);
      await this.#exited;
      clearTimeout(kill);
    }
    this.#state = 'stopped';
  }

  #fork(): void {
    const { adapter } = this.#options;
    const isolation = this.#options.isolation ?? 'process';
    this.#lastFatal = undefined;
    let exited!: () => void;
    this.#exited = new Promise<void>((resolve) => {
      exited = resolve;
    });
    const child: AdapterRunner = startAdapterRunner(isolation, { folder: adapter.folder, stdin: this.#options.stdin ?? 'ignore' }, {
      onMessage: (raw) => this.#onMessage(raw),
      onExit: (code, signal) => {
        exited();
        this.#onExit(child, code, signal);
      },
      onError: (error) => {
        // A thread's uncaught error ends it; the supervisor restarts it like a crashed process.
        if (isolation === 'thread') this.#lastFatal ??= error.stack ?? error.message;
        this.#logger.error({ error: error.message }, `the ${adapter.name} adapter ${isolation} reported an error`);
      },
      onSendFailed: (error) => this.#logger.debug({ error: error.message }, `a message to the adapter ${isolation} was not delivered (it is exiting)`),
    });
    this.#child = child;
    this.#startedAt = this.#options.clock.now();
  }

  #sendInit(): void {
    const { nickname, aliases, accounts, accountGroups } = this.#init!.bot;
    const groups = accountGroups === undefined ? undefined : Object.fromEntries(Object.entries(accountGroups).map(([id, lists]) => [id, { allow: [...lists.allow], deny: [...lists.deny] }]));
    const bot = { nickname, aliases: [...aliases], accounts: { ...accounts }, ...(groups === undefined ? {} : { accountGroups: groups }) };
    this.#post({ type: 'init', name: this.#options.adapter.name, config: this.#init!.config, bot });
  }

  #onMessage(raw: unknown): void {
    const parsed = AdapterToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.#logger.error({ issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) }, 'ignored a malformed message from the adapter process');
      return;
    }
    this.#handle(parsed.data);
  }

  #handle(message: AdapterToHostParsed): void {
    switch (message.type) {
      case 'ready': {
        this.#canCall = message.canCall;
        this.#state = 'ready';
        this.#logger.info({ pid: this.#child?.pid, isolation: this.#child?.isolation, ...(this.#child?.threadId === undefined ? {} : { threadId: this.#child.threadId }) }, this.#restarts === 0 ? `the ${this.#options.adapter.name} adapter is up` : `the ${this.#options.adapter.name} adapter is up again (restart ${this.#restarts})`);
        this.#firstStart?.resolve();
        this.#firstStart = undefined;
        const waiters = this.#readyWaiters;
        this.#readyWaiters = [];
        for (const waiter of waiters) waiter.resolve();
        return;
      }
      case 'inbound':
        void this.#receive(message.id, message.envelope);
        return;
      case 'event':
        void this.#receiveEvent(message.id, message.event);
        return;
      case 'status': {
        const { connected, selfId, detail, accounts } = message;
        this.#status = {
          connected,
          ...(selfId === undefined ? {} : { selfId }),
          ...(detail === undefined ? {} : { detail }),
          ...(accounts === undefined ? {} : { accounts: accounts.map((account) => ({ ...account })) }),
        };
        this.#logger.info({ connected, selfId }, detail ?? (connected ? 'platform connected' : 'platform disconnected'));
        this.#notifyConnection(connected);
        return;
      }
      case 'input_closed':
        this.#options.onInputClosed?.();
        return;
      case 'log':
        this.#relayLog(message.record);
        return;
      case 'result': {
        const pending = this.#pending.get(message.id);
        if (pending === undefined) return;
        this.#pending.delete(message.id);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(this.#failure(`${pending.what} failed: ${message.error ?? 'no reason given'}`, message.failure ?? 'retry'));
        return;
      }
      case 'accepted': {
        const pending = this.#pending.get(message.id);
        if (pending !== undefined) pending.accepted = true;
        return;
      }
      case 'fatal':
        this.#lastFatal = message.error;
        this.#logger.error({ error: message.error }, `the ${this.#options.adapter.name} adapter failed`);
        return;
    }
  }

  async #receive(id: number, envelope: unknown): Promise<void> {
    let ack: InboundAck;
    try {
      ack = await this.#options.receive(envelope);
    } catch (error) {
      ack = { stored: false, status: 'failed', reason: error instanceof Error ? error.message : String(error) };
      this.#logger.error({ error: ack.reason }, 'an inbound message could not be stored');
    }
    this.#post({ type: 'inbound_ack', id, ack });
  }

  async #receiveEvent(id: number, event: unknown): Promise<void> {
    let ack: InboundAck;
    const receiveEvent = this.#options.receiveEvent;
    try {
      ack = receiveEvent === undefined ? { stored: false, status: 'invalid', reason: 'this host takes no platform events' } : await receiveEvent(event);
    } catch (error) {
      ack = { stored: false, status: 'failed', reason: error instanceof Error ? error.message : String(error) };
      this.#logger.error({ error: ack.reason }, 'a platform event could not be handled');
    }
    this.#post({ type: 'inbound_ack', id, ack });
  }

  #relayLog(record: Record<string, unknown>): void {
    const { level, msg, time: _time, ...fields } = record;
    const text = typeof msg === 'string' ? msg : '';
    const numeric = typeof level === 'number' ? level : 30;
    if (numeric >= 50) this.#logger.error(fields, text);
    else if (numeric >= 40) this.#logger.warn(fields, text);
    else if (numeric >= 30) this.#logger.info(fields, text);
    else if (numeric >= 20) this.#logger.debug(fields, text);
    else this.#logger.trace(fields, text);
  }

  #onExit(child: AdapterRunner, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.#child) return;
    if (this.#state === 'idle') {
      // A prewarmed process that died before start(): start() forks a fresh one.
      this.#logger.debug({ code, signal }, 'the prewarmed adapter process exited before start()');
      return;
    }
    const name = this.#options.adapter.name;
    const upForMs = this.#options.clock.now() - this.#startedAt;
    // The accounts stay listed, each disconnected, so the console still shows who they were.
    const accounts = this.#status.accounts?.map((account) => ({ selfId: account.selfId, connected: false, detail: 'the adapter process exited' }));
    this.#status = accounts === undefined ? { connected: false } : { connected: false, accounts };
    this.#notifyConnection(false);
    for (const pending of this.#pending.values()) {
      pending.reject(
        pending.accepted
          ? this.#failure(`${pending.what}: the adapter process exited before confirming; not retried, so nothing is sent twice`, 'in_doubt')
          : this.#failure(`${pending.what}: the adapter process exited before taking it`, 'retry'),
      );
    }
    this.#pending.clear();
    if (this.#state === 'stopping' || this.#state === 'stopped') {
      this.#logger.info({ code, signal }, `the ${name} adapter stopped`);
      return;
    }
    const how = signal === null ? `exit code ${String(code)}` : `signal ${signal}`;
    if (this.#firstStart !== undefined) {
      const reason = this.#lastFatal?.split('\n')[0] ?? `the process ended (${how}) before the adapter was up`;
      this.#firstStart.reject(new AdapterError(name, `could not start: ${reason}`));
      this.#firstStart = undefined;
      this.#state = 'stopped';
      return;
    }
    if (upForMs >= this.#policy.resetAfterMs) this.#nextDelayMs = this.#policy.initialDelayMs;
    const delay = this.#nextDelayMs;
    this.#nextDelayMs = Math.min(this.#policy.maxDelayMs, delay * 2);
    this.#restarts += 1;
    this.#state = 'restarting';
    this.#logger.warn(
      { code, signal, upForMs, restartInMs: delay, restarts: this.#restarts },
      `the ${name} adapter exited unexpectedly (${how}) after ${(upForMs / 1000).toFixed(1)} s; restarting in ${(delay / 1000).toFixed(1)} s`,
    );
    this.#restartTimer = this.#options.clock.setTimeout(() => {
      this.#restartTimer = undefined;
      if (this.#state !== 'restarting') return;
      this.#fork();
      this.#sendInit();
    }, delay);
  }

  async #request(what: string, build: (id: number) => HostToAdapter): Promise<unknown> {
    const name = this.#options.adapter.name;
    if (this.#state === 'stopping' || this.#state === 'stopped' || this.#state === 'idle') {
      throw this.#failure(`${what}: the adapter is not running (${this.#state})`, 'retry');
    }
    if (this.#state !== 'ready') await this.#waitUntilReady(what);
    if (what.startsWith('action') && !this.#canCall) throw new AdapterError(name, `${what}: this adapter has no platform actions`);
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, what, accepted: false });
      this.#post(build(id));
    });
  }

  #waitUntilReady(what: string): Promise<void> {
    const waitMs = this.#options.deliveryWaitMs ?? 30_000;
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => {
          this.#options.clock.clearTimeout(timer);
          resolve();
        },
        reject: (error: Error) => {
          this.#options.clock.clearTimeout(timer);
          reject(error);
        },
      };
      const timer = this.#options.clock.setTimeout(() => {
        this.#readyWaiters = this.#readyWaiters.filter((entry) => entry !== waiter);
        reject(this.#failure(`${what}: the adapter was not up within ${waitMs} ms`, 'retry'));
      }, waitMs);
      this.#readyWaiters.push(waiter);
    });
  }

  /** An AdapterError that tells the outbox what the failure means. */
  #failure(reason: string, kind: DeliveryFailureKind): AdapterError {
    return withDeliveryFailure(new AdapterError(this.#options.adapter.name, reason), kind);
  }

  #notifyConnection(connected: boolean): void {
    for (const listener of [...this.#connectionListeners]) {
      try {
        listener(connected);
      } catch (error) {
        this.#logger.error({ error: error instanceof Error ? error.message : String(error) }, 'a connection listener failed');
      }
    }
  }

  #failWaiters(error: Error): void {
    const waiters = this.#readyWaiters;
    this.#readyWaiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }

  #post(message: HostToAdapter): void {
    this.#child?.send(message);
  }
}
