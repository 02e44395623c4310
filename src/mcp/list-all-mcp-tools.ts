import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** More pages than any real server sends; a server that keeps paging past it is broken. */
const MAX_PAGES = 1000;

/**
 * Every tool `client`'s server offers, following `nextCursor` page by page. Throws when a
 * request fails, a cursor repeats or the pages never end.
 */
export async function listAllMcpTools(client: Client, options: RequestOptions = {}): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
    if (seenCursors.has(cursor)) throw new Error(`tools/list repeated the cursor ${JSON.stringify(cursor)}`);
    seenCursors.add(cursor);
  }
  throw new Error(`tools/list did not end after ${MAX_PAGES} pages`);
}
