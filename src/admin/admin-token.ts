import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A new console token: 24 random bytes, URL-safe. A new one is made at every start. */
export function createAdminToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Compares a presented token with the real one in constant time. */
export function tokenMatches(presented: string, token: string): boolean {
  const given = Buffer.from(presented);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
