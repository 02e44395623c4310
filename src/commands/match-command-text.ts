/** A message read as a command line: `/roll 2 6` is prefix `/`, name `roll`, line `2 6`. */
export interface CommandText {
  readonly prefix: string;
  /** The word after the prefix, as written. */
  readonly name: string;
  /** What follows the name (arguments and options), leading whitespace removed. */
  readonly line: string;
  /** True when the bot was @-mentioned in front of the command (a group's `@bot /help`). */
  readonly addressed: boolean;
}

export interface CommandTextInput {
  readonly content: string;
  /** The bot was @-mentioned (or replied to): a leading `@name` may stand before the prefix. */
  readonly mentionsBot: boolean;
  readonly prefixes: readonly string[];
}

const LEADING_MENTIONS = /^(?:\s*@\S+)+\s*/u;

/**
 * The command a message holds, or undefined. A message that does not start with a prefix
 * costs a few `startsWith` calls; with the bot mentioned, the leading `@name` words (an at
 * segment renders as `@nickname` or `@<id>`) are skipped first.
 */
export function matchCommandText(input: CommandTextInput): CommandText | undefined {
  const direct = afterPrefix(input.content, input.prefixes, false);
  if (direct !== undefined || !input.mentionsBot) return direct;
  const mention = LEADING_MENTIONS.exec(input.content);
  if (mention === null) return undefined;
  return afterPrefix(input.content.slice(mention[0].length), input.prefixes, true);
}

function afterPrefix(text: string, prefixes: readonly string[], addressed: boolean): CommandText | undefined {
  for (const prefix of prefixes) {
    if (!text.startsWith(prefix)) continue;
    const rest = text.slice(prefix.length);
    const word = /^\S+/u.exec(rest);
    if (word === null) return undefined; // a prefix alone ("/") is no command
    return { prefix, name: word[0], line: rest.slice(word[0].length).trimStart(), addressed };
  }
  return undefined;
}
