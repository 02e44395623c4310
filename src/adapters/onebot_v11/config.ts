import * as z from 'zod';
import { secret } from '../../plugin-system/config/secret.js';

/** A group id as TOML may hold it: a string ("123456") or a bare integer (123456); kept as a string. */
const groupId = z.union([z.string().trim().min(1), z.number().int().nonnegative()]).transform(String);

function isWebSocketUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'ws:' || url.protocol === 'wss:';
  } catch {
    return false;
  }
}

const port = z.number().int().min(0).max(65535);

const webSocketUrl = z.string().refine(isWebSocketUrl, { error: 'must be a ws:// or wss:// URL' });

/** One `[[forward.endpoints]]` table: a QQ client's forward-WebSocket server. Strict, so a misspelt `token` is not silently the shared one. */
const forwardEndpoint = z.strictObject({
  url: webSocketUrl.describe('WebSocket URL of this QQ client\'s forward WebSocket server, e.g. "ws://127.0.0.1:3001".'),
  access_token: secret(z.string().optional()).describe(
    'The token this QQ client expects (its "token" in NapCat/Lagrange), when it differs from the access_token at the top of the file.\n' +
      'Not set: the top-level access_token. Empty (""): no authentication for this endpoint.',
  ),
});

/** The same server twice would be two connections to one account: refused, naming the later entry. */
function refuseDuplicateUrls(endpoints: readonly { url: string }[], context: z.RefinementCtx): void {
  const firstIndexOf = new Map<string, number>();
  endpoints.forEach((endpoint, index) => {
    const key = normalizedUrl(endpoint.url);
    const first = firstIndexOf.get(key);
    if (first === undefined) {
      firstIndexOf.set(key, index);
      return;
    }
    context.addIssue({
      code: 'custom',
      path: [index, 'url'],
      message: `the same server as forward.endpoints.${first}.url; list each QQ client once (each endpoint is one connection, one account)`,
    });
  });
}

/** `ws://Host:3001` and `ws://host:3001/` name the same server. */
function normalizedUrl(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}

/**
 * `config/adapters/onebot_v11.toml`. Every table has defaults, so an empty file is a working
 * reverse-WebSocket setup on 127.0.0.1:8095.
 */
export const configSchema = z.object({
  mode: z
    .enum(['reverse', 'forward'])
    .describe(
      'How moonglass and the QQ client (NapCat, Lagrange) find each other.\n' +
        '"reverse": moonglass listens and the QQ client connects to it (the usual setup; fill in [reverse]).\n' +
        '"forward": the QQ client listens and moonglass connects to it (fill in [forward]).',
    )
    .default('reverse'),
  access_token: secret(z.string().default('')).describe(
    'Shared secret between moonglass and the QQ client; must match the "token" set in NapCat/Lagrange.\n' +
      'Empty: no authentication (only safe when both listen on 127.0.0.1).\n' +
      'Reverse mode refuses connections without "Authorization: Bearer <token>" or "?access_token=<token>"; forward mode sends it.',
  ),
  action_timeout_ms: z
    .number()
    .int()
    .min(10)
    .describe('Milliseconds to wait for the QQ client to answer an action (sending a message, fetching one) before giving up.')
    .default(30_000),
  platform: z
    .string()
    .trim()
    .min(1)
    .describe('Platform name stored with every message and used to look up the bot account in bot.toml [accounts].')
    .default('qq'),
  reverse: z
    .object({
      host: z
        .string()
        .min(1)
        .describe('Address to listen on. 127.0.0.1 accepts only this machine; 0.0.0.0 accepts any (set access_token then).')
        .default('127.0.0.1'),
      port: port.describe('Port to listen on; 0 picks a free one (tests only).').default(8095),
      path: z
        .string()
        .startsWith('/')
        .describe(
          'URL path the QQ client connects to. With the defaults, enter ws://127.0.0.1:8095/onebot/v11/ws in NapCat/Lagrange.\n' +
            'Only this exact path is accepted (a trailing "/" is ignored); use "/" if your client URL has no path.',
        )
        .default('/onebot/v11/ws'),
    })
    .describe('Reverse WebSocket (mode = "reverse"): moonglass is the server. Set the QQ client\'s reverse WebSocket role to Universal.')
    .prefault({}),
  forward: z
    .object({
      url: webSocketUrl
        .describe(
          'WebSocket URL of the QQ client\'s forward WebSocket server (NapCat "WebSocket server", Lagrange "ForwardWebSocket").\n' +
            'Not used when [[forward.endpoints]] lists any.',
        )
        .default('ws://127.0.0.1:3001'),
      reconnect_interval_ms: z
        .number()
        .int()
        .min(10)
        .describe('Milliseconds between connection attempts after the connection drops or cannot be made (for each endpoint on its own).')
        .default(3000),
      endpoints: z
        .array(forwardEndpoint)
        .superRefine(refuseDuplicateUrls)
        .optional()
        .describe(
          'Several QQ clients (one QQ account each): list their servers instead of url, one table per client, below this [forward] table:\n' +
            '  [[forward.endpoints]]\n' +
            '  url = "ws://127.0.0.1:3001"\n' +
            '  [[forward.endpoints]]\n' +
            '  url = "ws://127.0.0.1:3002"\n' +
            '  access_token = "..."   # optional; default: the access_token at the top of this file\n' +
            'Each endpoint is a connection of its own that reconnects on its own; a reply goes out on the connection of the account the message came to.\n' +
            'Not set or empty: the one url above.',
        ),
    })
    .describe('Forward WebSocket (mode = "forward"): the QQ client is the server and moonglass connects to it.')
    .prefault({}),
  groups: z
    .object({
      allow: z
        .array(groupId)
        .describe('Group ids whose messages the bot receives, e.g. ["123456"]. Empty: every group.')
        .default([]),
      deny: z
        .array(groupId)
        .describe('Group ids whose messages are always dropped, even when also listed in allow.')
        .default([]),
    })
    .describe('Which QQ groups the bot listens to. Private chats are not affected.')
    .prefault({}),
});

/** The validated adapter config. */
export type OneBotConfig = z.output<typeof configSchema>;

/** Comment lines at the top of the generated `onebot_v11.toml`. */
export const configHeader: string[] = [
  'OneBot v11 adapter: connects the bot to QQ through NapCat or Lagrange.',
  'In the QQ client, add a reverse WebSocket (Universal role) pointing at the [reverse] address below,',
  'or set mode = "forward" and point [forward] url at the client\'s WebSocket server (several clients: [[forward.endpoints]]).',
  'Use the same access_token on both sides.',
];
