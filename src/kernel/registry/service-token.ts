import { parseSignature } from '../signature/parse-signature.js';
import type { ServiceTypes } from './service-types.js';

declare const SERVICE_TYPE: unique symbol;

/**
 * A signature declared in `ServiceTypes`, branded with the type of its service. It is the
 * signature string itself at run time, so it goes wherever a signature does: `@inject(token)`,
 * `getService`, `ctx.override`.
 */
export type ServiceToken<S extends keyof ServiceTypes = keyof ServiceTypes> = S & { readonly [SERVICE_TYPE]: ServiceTypes[S] };

/** The service type behind a token or a declared signature: `ServiceOf<typeof FORECAST>`. */
export type ServiceOf<Token> = Token extends { readonly [SERVICE_TYPE]: infer T } ? T : Token extends keyof ServiceTypes ? ServiceTypes[Token] : never;

/**
 * The token for a service declared in `ServiceTypes` (by declaration merging, see there): a
 * signature that is not declared there is a compile error, and a malformed one throws
 * `SignatureError` where the token is made. `@inject(serviceToken('weather:service:forecast'))`.
 */
export function serviceToken<S extends keyof ServiceTypes>(signature: S): ServiceToken<S> {
  parseSignature(signature);
  return signature as ServiceToken<S>;
}
