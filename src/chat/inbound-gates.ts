import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Message } from './message.js';

/**
 * What a gate says of an inbound message before it is stored and any chatter sees it: `pass`
 * (the next gate, then the chatter), or taken, with the reason (a command, a guest, a rate
 * limit): the message is then stored as read, in the same transaction, so no chatter answers
 * it, now or after a restart, and the reason is logged at debug level. `afterStored` runs
 * once the message is in the database (a command runs there); what it throws is logged.
 */
export type GateVerdict =
  | { readonly pass: true }
  | {
      readonly pass: false;
      readonly reason: string;
      readonly afterStored?: () => void | Promise<void>;
      /** The gate logs for itself (a rate limit: one line per user per window), so ingress writes no line of its own. */
      readonly quiet?: boolean;
    };

/** One check between ingress and the chatter. */
export interface InboundGate {
  /** Shown in the log line of a message it takes ("commands", "guests", "rate limit"). */
  readonly name: string;
  /** Lower runs first (guests 100, commands 200, rate limits 300). */
  readonly order: number;
  /** `message` is the one about to be stored (its stream is known; it is not in the database yet). */
  check(message: Message): GateVerdict | Promise<GateVerdict>;
}

export const PASS: GateVerdict = Object.freeze({ pass: true });

/**
 * The gates a delivered message goes through, in `order`. A gate that throws is logged and
 * passes the message on (fail-open, like the event bus): a broken gate never loses a message.
 */
export class InboundGates {
  readonly #gates: InboundGate[] = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Adds a gate; returns its removal. */
  add(gate: InboundGate): () => void {
    this.#gates.push(gate);
    this.#gates.sort((a, b) => a.order - b.order);
    return () => {
      const index = this.#gates.indexOf(gate);
      if (index >= 0) this.#gates.splice(index, 1);
    };
  }

  get size(): number {
    return this.#gates.length;
  }

  /** The gates' names, in the order they run. */
  names(): string[] {
    return this.#gates.map((gate) => gate.name);
  }

  /** Runs the gates; the first that takes the message wins. */
  async admit(message: Message): Promise<GateVerdict & { readonly gate?: string }> {
    for (const gate of [...this.#gates]) {
      let verdict: GateVerdict;
      try {
        verdict = await gate.check(message);
      } catch (error) {
        this.#logger.warn({ gate: gate.name, stream_id: message.streamId, message_id: message.messageId, error: describeError(error) }, 'an inbound gate failed; the message goes on');
        continue;
      }
      if (!verdict.pass) return { ...verdict, gate: gate.name };
    }
    return PASS;
  }
}
