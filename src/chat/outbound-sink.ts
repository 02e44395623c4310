import type { ChatType } from './message.js';

/**
 * A picture, voice clip or video to send. `file` is what OneBot v11's `file` field takes:
 * an `http(s)://` URL, `base64://<data>`, or a `file:///` URL of a file on the machine the
 * QQ client runs on.
 */
export interface OutboundMedia {
  /** `image` a picture, `record` a voice clip, `video` a video: the OneBot segment type it is sent as. */
  kind: 'image' | 'record' | 'video';
  /** Where the platform fetches it from: an `http(s)://` URL, `base64://<data>` or a `file:///` URL. */
  file: string;
}

/** One message for the platform, addressed by the stream it belongs to. */
export interface OutboundDelivery {
  /** The conversation it belongs to. */
  streamId: string;
  /** The stream's platform name (`qq`, `console` …). */
  platform: string;
  /** Send to the group (`groupId`) or to the person (`userId`). */
  chatType: ChatType;
  /** The group to send to, in a group chat; null in a private one. */
  groupId: string | null;
  /** The person to send to, in a private chat; null in a group. */
  userId: string | null;
  /**
   * The text, as the last `on_message_sent` handler left it. Sent as plain text (OneBot: one
   * `text` segment, CQ codes not parsed); may be empty when `media` carries the message.
   */
  content: string;
  /** The platform id of the message to quote, or null. */
  replyTo: string | null;
  /** The user id to @-mention before the text (groups), or null. */
  at: string | null;
  /** Pictures, voice clips or videos sent with the text (after it). Absent: text only. */
  media?: readonly OutboundMedia[];
  /**
   * The bot account (connection) to send on: the one the conversation belongs to (OneBot: the
   * `self_id` of the connection). Absent or null: the adapter's default connection.
   */
  account?: string | null;
  /**
   * The outbox row this delivery comes from, stable across retries and restarts; an adapter
   * may use it to recognise a delivery it has already made.
   */
  outboxId?: number;
}

/**
 * What the platform says of a delivery left in doubt (the request went out, no answer came):
 * it has the message (with its id), it has not, or it cannot tell.
 */
export type DeliveryCheck =
  | {
      /** The platform has it: it is stored as sent, not sent again. */
      readonly status: 'delivered';
      /** The platform's id of the message found. */
      readonly messageId: string;
    }
  | {
      /** The platform does not have it: the outbox sends it again. */
      readonly status: 'missing';
    }
  | {
      /** The platform cannot tell: it is taken as delivered (logged), so nobody gets it twice. */
      readonly status: 'unknown';
      /** Why it cannot tell, for the log. */
      readonly reason: string;
    };

/** What `confirm` is asked about: the delivery, since when, and the ids the bot's earlier messages there have. */
export interface DeliveryCheckRequest {
  /** The delivery in doubt, as it was attempted. */
  delivery: OutboundDelivery;
  /** When the delivery in doubt was attempted (epoch ms). */
  sinceMs: number;
  /** Platform ids of messages already stored as sent in that chat: never taken for this one. */
  knownMessageIds: readonly string[];
}

/**
 * Where sent messages go: the adapter seam. The console and OneBot adapters implement it;
 * tests record deliveries. `deliver` resolves to the platform's id for the sent message.
 */
export interface OutboundSink {
  /**
   * Sends one message. Rejects when it did not go through; an error whose `deliveryFailure`
   * is `in_doubt` or `refused` is not retried, any other is (see `DeliveryFailureKind`).
   */
  deliver(delivery: OutboundDelivery): Promise<{
    /** The platform's id of the sent message (OneBot: `message_id`, as a string). */
    messageId: string;
  }>;
  /**
   * A platform action by name (OneBot: `get_msg`, `get_forward_msg` …), resolving to its data.
   * Sinks without actions leave it out.
   */
  call?(action: string, params: Readonly<Record<string, unknown>>, account?: string | null): Promise<unknown>;
  /**
   * Tells `listener` when the platform connection goes up or down, so queued replies are
   * sent the moment it is back; returns the unsubscribe. Sinks without it are retried on a
   * timer. A failed `deliver` may carry `deliveryFailure` (see `delivery-failure.ts`).
   */
  onConnectionChange?(listener: (connected: boolean) => void): () => void;
  /**
   * Looks on the platform for a delivery left in doubt (OneBot: the chat's recent history),
   * so the outbox neither loses it nor sends it twice. Sinks without it: a delivery in doubt
   * is taken as delivered.
   */
  confirm?(request: DeliveryCheckRequest): Promise<DeliveryCheck>;
}
