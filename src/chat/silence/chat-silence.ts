/**
 * Why a conversation is not answered now: an owner's `/mute` (until a time), or the quiet
 * hours of the `bot.toml [[rules]]` entry that applies. Owners' commands still run.
 */
export type ChatSilence =
  | {
      /** An owner's `/mute` (see `CommandOperator.mute`). */
      readonly kind: 'muted';
      /** Epoch milliseconds when the mute ends. */
      readonly until: number;
      /** Who muted it (platform user id), when known. */
      readonly by: string | null;
    }
  | {
      /** The `[[rules]]` entry that applies now has `quiet = true`. */
      readonly kind: 'quiet_hours';
      /** The rule's name (see `ActiveChatRule.name`). */
      readonly rule: string;
    };
