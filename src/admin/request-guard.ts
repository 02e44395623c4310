import type { IncomingMessage } from 'node:http';
import { tokenMatches } from './admin-token.js';

/** Why a request is refused, or nothing when it may go on. */
export type GuardResult = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/**
 * The console's front door. Every request must be addressed to this server by a loopback
 * name (`Host: 127.0.0.1:<port>` or `localhost:<port>`: a page on another site cannot reach
 * us through DNS rebinding), and a request that says where it comes from (`Origin`) must come
 * from this server's own page. API calls also need the token, as `Authorization: Bearer`.
 */
export function guardRequest(request: IncomingMessage, port: number, token: string, needsToken: boolean): GuardResult {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = request.headers.host ?? '';
  if (!allowedHosts.includes(host)) return { ok: false, status: 403, reason: `refused: the console answers only at ${allowedHosts.join(' or ')}` };
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedHosts.some((allowed) => origin === `http://${allowed}`)) {
    return { ok: false, status: 403, reason: `refused: requests from ${origin} are not allowed` };
  }
  if (!needsToken) return { ok: true };
  const header = request.headers.authorization ?? '';
  const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  if (presented === '' || !tokenMatches(presented, token)) {
    return { ok: false, status: 401, reason: 'a valid console token is required (Authorization: Bearer <token>, printed at start)' };
  }
  return { ok: true };
}
