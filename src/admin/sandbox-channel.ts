import type { InboundEnvelope } from '../chat/inbound-envelope.js';
import type { IngressOutcome } from '../chat/ingress.js';
import type { DeliveryCheckRequest, OutboundDelivery, OutboundSink } from '../chat/outbound-sink.js';

/** The platform name of messages typed in the console's sandbox page. */
export const SANDBOX_PLATFORM = 'sandbox';

/** One line of the sandbox chat. */
export interface SandboxLine {
  seq: number;
  chat: 'private' | 'group';
  from: 'user' | 'bot';
  text: string;
  /** Epoch milliseconds. */
  time: number;
}

/**
 * The sandbox: a private chat and a group chat on the `sandbox` platform, typed in the
 * browser. What the user types goes through the host's real ingress; what the bot sends to
 * the sandbox platform is kept here instead of reaching the adapter (`wrap` routes it).
 */
export class SandboxChannel {
  readonly #lines: SandboxLine[] = [];
  readonly #receive: (envelope: InboundEnvelope) => Promise<IngressOutcome>;
  readonly #now: () => number;
  #seq = 0;

  constructor(receive: (envelope: InboundEnvelope) => Promise<IngressOutcome>, now: () => number) {
    this.#receive = receive;
    this.#now = now;
  }

  /** A sink that keeps sandbox deliveries here and passes every other one to `next`. */
  wrap(next: OutboundSink): OutboundSink {
    const keep = (delivery: OutboundDelivery) => this.#keep(delivery);
    return {
      deliver: (delivery) => (delivery.platform === SANDBOX_PLATFORM ? keep(delivery) : next.deliver(delivery)),
      ...(next.call === undefined ? {} : { call: (action: string, params: Readonly<Record<string, unknown>>, account?: string | null) => next.call!(action, params, account) }),
      ...(next.onConnectionChange === undefined ? {} : { onConnectionChange: (listener: (connected: boolean) => void) => next.onConnectionChange!(listener) }),
      ...(next.confirm === undefined ? {} : { confirm: (request: DeliveryCheckRequest) => next.confirm!(request) }),
    };
  }

  /** A message typed by the sandbox user; `mention` marks a group message as addressed to the bot. */
  async send(input: { chat: 'private' | 'group'; text: string; mention: boolean; userName: string }): Promise<IngressOutcome> {
    const seq = ++this.#seq;
    this.#lines.push({ seq, chat: input.chat, from: 'user', text: input.text, time: this.#now() });
    return this.#receive({
      platform: SANDBOX_PLATFORM,
      message_id: `sandbox-${this.#now()}-${seq}`,
      chat_type: input.chat,
      ...(input.chat === 'group' ? { group: { id: 'sandbox-group', name: 'Sandbox group' } } : {}),
      sender: { id: 'sandbox-user', name: input.userName },
      content: input.text,
      mentions_bot: input.chat === 'private' || input.mention,
    });
  }

  /** The lines after `afterSeq`, oldest first. */
  linesAfter(afterSeq: number): SandboxLine[] {
    return this.#lines.filter((line) => line.seq > afterSeq);
  }

  async #keep(delivery: OutboundDelivery): Promise<{ messageId: string }> {
    const seq = ++this.#seq;
    this.#lines.push({ seq, chat: delivery.chatType, from: 'bot', text: delivery.content, time: this.#now() });
    if (this.#lines.length > 500) this.#lines.splice(0, this.#lines.length - 500);
    return { messageId: `sandbox-out-${seq}` };
  }
}
