import { parseSignature } from '../signature/parse-signature.js';
import type { ServiceTypes } from './service-types.js';

/**
 * A signature declared in `ServiceTypes`. Its type is the signature's literal type, which
 * names the service's type (`ServiceOf`), and the signature string itself at run time, so it
 * goes wherever a signature does: `@inject(token)`, `getService(token)` (typed), `ctx.override`.
 * (Not a branded string: a brand would hide the literal from `getService`'s typing.)
 */
export type ServiceToken<S extends keyof ServiceTypes = keyof ServiceTypes> = S;

/** The service type behind a token or a declared signature: `ServiceOf<typeof FORECAST>`. */
export type ServiceOf<Token> = Token extends keyof ServiceTypes ? ServiceTypes[Token] : never;

/**
 * The token for a service declared in `ServiceTypes` (by declaration merging, see there): a
 * signature that is not declared there is a compile error, and a malformed one throws
 * `SignatureError` where the token is made. `@inject(serviceToken('weather:service:forecast'))`.
 */
export function serviceToken<S extends keyof ServiceTypes>(signature: S): ServiceToken<S> {
  parseSignature(signature);
  return signature;
}
