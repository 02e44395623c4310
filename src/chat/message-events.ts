import type { Message } from './message.js';
import type { ValidInboundEnvelope } from './inbound-envelope.js';

/** `on_message_received`: a handler above weight 0 may STOP it (stored, not delivered). */
export interface OnMessageReceivedPayload {
  /** The conversation the message arrived in (see `streamIdFor`). */
  stream_id: string;
  /** The message as it will be stored; not stored yet while the handlers run. */
  message: Message;
  /** The adapter's envelope after validation and the inbound length cap (defaults filled in, ids as strings). */
  envelope: ValidInboundEnvelope;
  /** The adapter that delivered it, `<plugin>:adapter:<name>` (e.g. `moonglass:adapter:sandbox`); `unknown` when the caller named none. */
  adapter_signature: string;
}

/** `on_message_sent`: published before a message goes to the platform; `continue_send = false` cancels it. */
export interface OnMessageSentPayload {
  /** The conversation the message goes to. */
  stream_id: string;
  /**
   * The draft (`messageId` is a `pending-…` placeholder until the platform answers). A handler
   * may change its fields except `streamId` and `direction`: the message stored and the
   * `content` sent are what it leaves here (media still come from the original send).
   */
  message: Message;
  /** True when published; a handler sets it to false to cancel the send (the sender gets `cancelled`). */
  continue_send: boolean;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    /** A message arrived from an adapter; see {@link OnMessageReceivedPayload}. */
    on_message_received: OnMessageReceivedPayload;
    /** The bot is about to send a message; see {@link OnMessageSentPayload}. */
    on_message_sent: OnMessageSentPayload;
  }
}
