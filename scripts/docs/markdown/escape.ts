/**
 * Text from code (schema descriptions, TSDoc) put into a VitePress page. VitePress compiles
 * every page as a Vue template, so a bare `<name>` or `{{` outside code would be read as markup:
 * escape them everywhere except inside inline code spans, which markdown-it escapes itself.
 */
export function escapeProse(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/&(?![a-z]+;|#\d+;)/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\{\{/g, '&#123;&#123;')))
    .join('');
}

/** The same, for a table cell: also a `|` would end the cell and a newline the row. */
export function escapeCell(text: string): string {
  return escapeProse(text).replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** Inline code that survives any backticks inside it. */
export function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${text}${fence}` : `${fence} ${text} ${fence}`;
}

/** An anchor id from any text: lowercase ASCII words joined by `-` (`bot.toml` + `chat.x_y` → `bot-toml-chat-x-y`). */
export function anchorId(...parts: string[]): string {
  return parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
