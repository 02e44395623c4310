import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** What the reverse server needs to judge an upgrade request. */
export interface HandshakeRequest {
  url?: string | undefined;
  headers: IncomingHttpHeaders;
}

export interface HandshakeRules {
  /** The configured path; a trailing `/` on either side is ignored. */
  path: string;
  /** Empty: no authentication. */
  accessToken: string;
}

export type HandshakeVerdict =
  | { readonly accepted: true; readonly selfId: string }
  | { readonly accepted: false; readonly status: 400 | 401 | 404; readonly reason: string };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function parseRequestUrl(url: string | undefined): URL | null {
  try {
    return new URL(url ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

/** `Authorization: Bearer <token>` (go-cqhttp wrote `Token <token>`), else `?access_token=`. */
function presentedToken(request: HandshakeRequest, url: URL): string | undefined {
  const authorization = header(request.headers, 'authorization');
  const match = authorization === undefined ? null : /^(?:bearer|token)\s+(.+)$/i.exec(authorization);
  if (match?.[1] !== undefined) return match[1].trim();
  return url.searchParams.get('access_token') ?? undefined;
}

/** Compares in constant time (hashing first makes the lengths equal). */
function sameToken(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Judges a reverse-WebSocket upgrade request the way the OneBot v11 spec describes it: the
 * path, then the access token, then `X-Self-ID` (required) and `X-Client-Role`. Only the
 * Universal role is served; separate API and Event connections are refused with a reason
 * that says how to fix the client's settings. A missing role counts as Universal.
 */
export function checkHandshake(request: HandshakeRequest, rules: HandshakeRules): HandshakeVerdict {
  const url = parseRequestUrl(request.url);
  if (url === null) return { accepted: false, status: 400, reason: `request URL ${JSON.stringify(request.url)} cannot be parsed` };
  if (normalizePath(url.pathname) !== normalizePath(rules.path)) {
    return { accepted: false, status: 404, reason: `path ${url.pathname} is not the OneBot endpoint (expected ${rules.path})` };
  }
  if (rules.accessToken !== '') {
    const token = presentedToken(request, url);
    if (token === undefined) return { accepted: false, status: 401, reason: 'access token missing (send Authorization: Bearer <token>)' };
    if (!sameToken(token, rules.accessToken)) return { accepted: false, status: 401, reason: 'access token does not match access_token' };
  }
  const selfId = header(request.headers, 'x-self-id');
  if (selfId === undefined) return { accepted: false, status: 400, reason: 'X-Self-ID header is missing (the QQ account of the client)' };
  const role = header(request.headers, 'x-client-role') ?? 'Universal';
  if (role.toLowerCase() !== 'universal') {
    return {
      accepted: false,
      status: 400,
      reason: `X-Client-Role ${role} is not supported: set the client's reverse WebSocket to Universal (one connection for events and API)`,
    };
  }
  return { accepted: true, selfId };
}
