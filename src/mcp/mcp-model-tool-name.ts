import { createHash } from 'node:crypto';

/** The longest function name model APIs accept. */
const MAX_LENGTH = 64;

/**
 * The name the model calls `tool` of `server` by: `mcp_<server>_<tool>`, every character other
 * than letters, digits, `_` and `-` replaced by `_`. A name longer than 64 is cut and ends in
 * a hash of the pair, so two long names stay apart.
 */
export function mcpModelToolName(server: string, tool: string): string {
  const name = `mcp_${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= MAX_LENGTH) return name;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_LENGTH - hash.length - 1)}_${hash}`;
}
