import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { ActionResponse } from './codec.js';
import { OneBotActionError } from './onebot-action-error.js';

interface PendingCall {
  action: string;
  resolve(data: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Calls OneBot actions over one socket: sends `{action, params, echo}` and settles the call
 * when the response with the same `echo` arrives (`handleResponse`), after `timeoutMs`, or
 * at once when the socket closes.
 */
export class ActionClient {
  readonly #socket: WebSocket;
  readonly #timeoutMs: number;
  readonly #pending = new Map<string, PendingCall>();
  readonly #prefix = randomUUID();
  #sequence = 0;

  constructor(socket: WebSocket, timeoutMs: number) {
    this.#socket = socket;
    this.#timeoutMs = timeoutMs;
    socket.once('close', () => this.rejectAll());
  }

  /** Calls `action` and resolves to the response's `data`. */
  call(action: string, params: Readonly<Record<string, unknown>>): Promise<unknown> {
    if (this.#socket.readyState !== WebSocket.OPEN) return Promise.reject(new OneBotActionError({ action, failure: 'closed', written: false }));
    this.#sequence += 1;
    const echo = `${this.#prefix}:${this.#sequence}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(echo);
        reject(new OneBotActionError({ action, failure: 'timeout', timeoutMs: this.#timeoutMs }));
      }, this.#timeoutMs);
      this.#pending.set(echo, { action, resolve, reject, timer });
      this.#socket.send(JSON.stringify({ action, params, echo }), (error) => {
        if (error !== undefined && error !== null) this.#settle(echo)?.reject(new OneBotActionError({ action, failure: 'closed', written: false }));
      });
    });
  }

  /** Settles the call this response answers; false when no pending call has its echo. */
  handleResponse(response: ActionResponse): boolean {
    if (typeof response.echo !== 'string') return false;
    const call = this.#settle(response.echo);
    if (call === undefined) return false;
    if (response.status === 'failed') {
      const detail = response.wording ?? response.message;
      call.reject(new OneBotActionError({ action: call.action, failure: 'failed', retcode: response.retcode, ...(detail === undefined ? {} : { detail }) }));
    } else {
      call.resolve(response.data ?? null);
    }
    return true;
  }

  /** Rejects every pending call with "connection closed". */
  rejectAll(): void {
    for (const echo of [...this.#pending.keys()]) {
      const call = this.#settle(echo);
      call?.reject(new OneBotActionError({ action: call.action, failure: 'closed', written: true }));
    }
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  #settle(echo: string): PendingCall | undefined {
    const call = this.#pending.get(echo);
    if (call === undefined) return undefined;
    this.#pending.delete(echo);
    clearTimeout(call.timer);
    return call;
  }
}
