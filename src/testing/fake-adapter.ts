import type { Host } from '../app/create-host.js';
import type { InboundEnvelope } from '../chat/inbound-envelope.js';
import type { IngressOutcome } from '../chat/ingress.js';
import type { OutboundDelivery, OutboundSink } from '../chat/outbound-sink.js';

/** What {@link FakeAdapter.send} puts in the message besides its text; every field optional. */
export interface FakeMessageOptions {
  /** The sender's id; default `10001`. */
  user?: string;
  /** The sender's display name; default `user <id>`. */
  userName?: string;
  /** A group id makes it a group message; default: a private chat. */
  group?: string;
  /** The bot was @-mentioned (or replied to). */
  mentionsBot?: boolean;
  /** The platform the message comes from; default `test`. */
  platform?: string;
  /** The platform's own event, kept as the message's `raw` (what `observeInbound` plugins read). */
  raw?: unknown;
  /** Images and videos in the message (see `InboundEnvelope.media`). */
  media?: InboundEnvelope['media'];
  /** The bot account it arrived on (OneBot: the connection's self id); its conversation is that account's. */
  account?: string;
}

/** Answers a platform action the way the platform would (or throws its refusal). */
export type FakeActionHandler = (params: Readonly<Record<string, unknown>>) => unknown;

/**
 * A stand-in for a chat platform: sends messages into the host the way an adapter does
 * (`host.receive`) and records everything the bot sends back.
 */
export class FakeAdapter implements OutboundSink {
  /** Everything the bot delivered, in order. */
  readonly sent: OutboundDelivery[] = [];
  /** Platform actions called through the adapter, in order, with the account when one was named. */
  readonly calls: {
    /** The platform action's name, e.g. `get_msg`. */
    action: string;
    /** The parameters it was called with. */
    params: Readonly<Record<string, unknown>>;
    /** The bot account named for the call; absent when none was. */
    account?: string;
  }[] = [];
  readonly #actions = new Map<string, FakeActionHandler>();
  readonly #host: Host;
  #nextId = 0;

  constructor(host: Host) {
    this.#host = host;
    host.setOutboundSink(this);
  }

  /** A message from a user, stored and delivered to its stream. */
  send(text: string, options: FakeMessageOptions = {}): Promise<IngressOutcome> {
    this.#nextId += 1;
    const user = options.user ?? '10001';
    return this.#host.receive(
      {
        platform: options.platform ?? 'test',
        message_id: `in-${this.#nextId}`,
        chat_type: options.group === undefined ? 'private' : 'group',
        ...(options.group === undefined ? {} : { group: { id: options.group, name: `group ${options.group}` } }),
        sender: { id: user, name: options.userName ?? `user ${user}` },
        content: text,
        mentions_bot: options.mentionsBot ?? false,
        ...(options.raw === undefined ? {} : { raw: options.raw }),
        ...(options.media === undefined ? {} : { media: options.media }),
        ...(options.account === undefined ? {} : { account: options.account }),
      },
      'testing:adapter:fake',
    );
  }

  /** The texts the bot sent, in order. */
  texts(): string[] {
    return this.sent.map((delivery) => delivery.content);
  }

  /** Makes `action` answer through `handler` (like OneBot's `get_forward_msg`). */
  onAction(action: string, handler: FakeActionHandler): void {
    this.#actions.set(action, handler);
  }

  /** Records the platform action in `calls` and answers with its `onAction` handler; rejects when none is set. */
  async call(action: string, params: Readonly<Record<string, unknown>>, account?: string | null): Promise<unknown> {
    this.calls.push({ action, params, ...(account === undefined || account === null ? {} : { account }) });
    const handler = this.#actions.get(action);
    if (handler === undefined) throw new Error(`the fake adapter has no answer for platform action ${action} (set one with onAction)`);
    return handler(params);
  }

  /** Records `delivery` in `sent` and answers like a platform that accepted it. */
  async deliver(delivery: OutboundDelivery): Promise<{
    /** The platform id the message got: `out-<n>`, counting every delivery. */
    messageId: string;
  }> {
    this.sent.push(delivery);
    return { messageId: `out-${this.sent.length}` };
  }
}
