import type { Message } from './message.js';
import type { ValidInboundEnvelope } from './inbound-envelope.js';

/** `on_message_received`: a handler above weight 0 may STOP it (stored, not delivered). */
export interface OnMessageReceivedPayload {
  stream_id: string;
  message: Message;
  envelope: ValidInboundEnvelope;
  adapter_signature: string;
}

/** `on_message_sent`: published before a message goes to the platform; `continue_send = false` cancels it. */
export interface OnMessageSentPayload {
  stream_id: string;
  message: Message;
  continue_send: boolean;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    on_message_received: OnMessageReceivedPayload;
    on_message_sent: OnMessageSentPayload;
  }
}
