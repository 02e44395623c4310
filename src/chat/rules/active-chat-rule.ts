/** The persona settings a rule may put over the conversation's own (its account's, else `[bot]`). */
export interface ChatRulePersona {
  /** The name the bot goes by in the chat (never empty); absent: the chat's own. */
  readonly nickname?: string;
  /** Other names it answers to there, replacing (not added to) the chat's own list. */
  readonly aliases?: readonly string[];
  /** Who it is, in a few sentences, for the system prompt. */
  readonly personality?: string;
  /** What it knows it is, for the system prompt. */
  readonly identity?: string;
  /** How it talks, for the system prompt. */
  readonly speaking_style?: string;
}

/**
 * The `bot.toml [[rules]]` entry that applies to a conversation at a moment: the first one
 * whose account, chat and local time ranges all match. What it leaves out is the default.
 */
export interface ActiveChatRule {
  /** The rule's `name`, else `rules[<position from 1>]`. */
  readonly name: string;
  /** Its position in `[[rules]]`, from 0. */
  readonly index: number;
  /** Multiplies NDFC's reply chance for messages not addressed to the bot (1: as configured). */
  readonly frequency: number;
  /** Persona settings over the conversation's own ({}: none). */
  readonly persona: ChatRulePersona;
  /** Tool and action names (or signatures) not offered in the chat. */
  readonly toolsOff: readonly string[];
  /** Plugin ids whose tools, actions and commands are switched off in the chat. */
  readonly pluginsOff: readonly string[];
  /** While it applies, messages are stored and never answered, except owners' commands. */
  readonly quiet: boolean;
}
