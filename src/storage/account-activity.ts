/** What is stored of one bot account: its conversations and their messages. */
export interface AccountActivity {
  /** The bot account (OneBot: its self id), as in `streams.account`. */
  account: string;
  /** Streams that belong to the account. */
  streams: number;
  /** Messages received in those streams. */
  inbound: number;
  /** Messages the bot sent in those streams. */
  outbound: number;
}

/**
 * Read-only counts per bot account, for the web console. A stream's messages count for the
 * account that owns the stream (`StreamRecord.account`); streams without one are left out.
 */
export interface AccountActivityReader {
  /** One entry per account that owns a stream, ordered by account. */
  perAccount(): AccountActivity[];
}
