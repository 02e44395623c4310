/**
 * Maps service signatures to their instance types, so `getService` is typed for known
 * services. A plugin that offers a service may add it by declaration merging:
 *
 * ```ts
 * declare module 'moonglass' {
 *   interface ServiceTypes { 'weather:service:forecast': ForecastService }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- filled by declaration merging
export interface ServiceTypes {}
