import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import { shortenSource } from './shorten-source.js';

interface SharedTask<T> {
  readonly controller: AbortController;
  /** Settles with the work's result, or with `null` as soon as the task is cancelled. */
  readonly result: Promise<T | null>;
}

/**
 * In-flight work shared by key: a second caller for a key whose work is running waits for
 * that work instead of starting its own. A waiter whose signal aborts cancels the shared
 * work (its signal aborts), and every waiter of it then gets `null` at once; the key is
 * free again immediately, so a later caller starts afresh.
 *
 * The work reports its own failures (it logs them and resolves `null`); a rejection here is
 * a bug and is logged at error.
 */
export class InFlightTasks<T> {
  readonly #tasks = new Map<string, SharedTask<T>>();
  readonly #logger: Logger;
  readonly #label: string;

  constructor(logger: Logger, label: string) {
    this.#logger = logger;
    this.#label = label;
  }

  /** Number of keys with running work. */
  get size(): number {
    return this.#tasks.size;
  }

  /**
   * Waits for the work under `key`, starting `work` when none is running. A signal that is
   * already aborted gets `null` without starting or joining anything.
   */
  run(key: string, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T | null>): Promise<T | null> {
    if (signal?.aborted === true) return Promise.resolve(null);
    let task = this.#tasks.get(key);
    if (task === undefined) task = this.#start(key, work);
    else this.#logger.debug({ key: shortenSource(key) }, `${this.#label}: waiting for the running task of the same content`);
    if (signal === undefined) return task.result;
    const onAbort = (): void => task.controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    return task.result.finally(() => signal.removeEventListener('abort', onAbort));
  }

  #start(key: string, work: (signal: AbortSignal) => Promise<T | null>): SharedTask<T> {
    const controller = new AbortController();
    const cancelled = new Promise<null>((resolve) => {
      controller.signal.addEventListener('abort', () => resolve(null), { once: true });
    });
    const finished = work(controller.signal).catch((error: unknown) => {
      this.#logger.error({ key: shortenSource(key), error: describeError(error) }, `${this.#label}: the shared work threw; treating it as a failure`);
      return null;
    });
    const task: SharedTask<T> = { controller, result: Promise.race([finished, cancelled]) };
    this.#tasks.set(key, task);
    const forget = (): void => {
      if (this.#tasks.get(key) === task) this.#tasks.delete(key);
    };
    controller.signal.addEventListener('abort', forget, { once: true });
    void task.result.then(forget);
    return task;
  }
}
