/** What NDFC keeps per stream across transient components (state lives on the plugin). */
export class NdfcState {
  /** When the bot last sent in each stream (epoch ms), for the typing delay. */
  readonly lastSendAt = new Map<string, number>();
}
