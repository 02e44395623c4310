/**
 * Why a conversation is not answered now: an owner's `/mute` (until a time), or the quiet
 * hours of the `bot.toml [[rules]]` entry that applies. Owners' commands still run.
 */
export type ChatSilence =
  | {
      readonly kind: 'muted';
      /** Epoch milliseconds when the mute ends. */
      readonly until: number;
      /** Who muted it (platform user id), when known. */
      readonly by: string | null;
    }
  | {
      readonly kind: 'quiet_hours';
      /** The rule's name (see `ActiveChatRule.name`). */
      readonly rule: string;
    };
