/** A `!<tool> <json>` command found in a user's text. */
export interface ToolCommand {
  name: string;
  args: Record<string, unknown>;
}

/** The end (exclusive) of the balanced `{...}` starting at `start`, respecting JSON strings; -1 when unbalanced. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return index + 1;
  }
  return -1;
}

/**
 * The first `!<tool> <json object>` in `text` whose tool is in `declared` and whose JSON
 * parses to an object, e.g. `帮我掷骰子 !roll_dice {"sides": 6}`; `undefined` when none.
 */
export function findToolCommand(text: string, declared: ReadonlySet<string>): ToolCommand | undefined {
  const pattern = /!([A-Za-z0-9_.:-]+)\s+(?=\{)/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const name = match[1]!;
    if (!declared.has(name)) continue;
    const start = match.index + match[0].length;
    const end = objectEnd(text, start);
    if (end < 0) continue;
    try {
      const args: unknown = JSON.parse(text.slice(start, end));
      if (typeof args === 'object' && args !== null && !Array.isArray(args)) return { name, args: args as Record<string, unknown> };
    } catch {
      // Not JSON after all: look for the next command.
    }
  }
  return undefined;
}
