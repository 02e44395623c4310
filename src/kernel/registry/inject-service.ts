import { inject } from 'inversify';
import { serviceToken } from './service-token.js';
import type { ServiceTypes } from './service-types.js';

/** What a compile error says when the injected service does not fit the parameter or property it goes into. */
export interface InjectedServiceMismatch<Service, Declared> {
  /** Never present at run time: its name is the compile error's message. */
  readonly 'the injected service does not fit the declared type': {
    /** The type `getService` gives for the signature. */
    service: Service;
    /** The type of the parameter or property it goes into. */
    declared: Declared;
  };
}

type Fits<Service, Declared> = [Service] extends [Declared] ? unknown : InjectedServiceMismatch<Service, Declared>;

/** For a constructor parameter (`index` a number), the type of that parameter; for a property, its type. */
type FitsTarget<Target, Key, Index, Service> = Index extends number
  ? Target extends abstract new (...args: infer Parameters) => unknown
    ? Index extends keyof Parameters
      ? Fits<Service, Parameters[Index]>
      : unknown
    : unknown
  : Key extends keyof Target
    ? Fits<Service, Target[Key]>
    : unknown;

/**
 * `@inject` for a service declared in `ServiceTypes`, checked at compile time like
 * `getService`: a signature that is not declared there is an error, and so is a constructor
 * parameter (or public property) whose declared type the service does not fit.
 *
 * ```ts
 * constructor(@injectService('weather:service:forecast') private readonly forecast: ForecastService) {}
 * ```
 */
export function injectService<S extends keyof ServiceTypes>(signature: S) {
  const decorate = inject(serviceToken(signature)) as (target: object, key: string | symbol | undefined, index?: number) => void;
  return <Target extends object, Key extends string | symbol | undefined, Index extends number | undefined = undefined>(
    target: Target & FitsTarget<Target, Key, Index, ServiceTypes[S]>,
    key: Key,
    index?: Index,
  ): void => decorate(target, key, index);
}
