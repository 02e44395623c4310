import { describeError } from '../errors/describe-error.js';
import type { Logger } from '../logger/logger.js';

const DISPOSE: symbol | undefined = (Symbol as unknown as { dispose?: symbol }).dispose;

/**
 * Calls `instance[Symbol.dispose]()`, else `instance.dispose()`, if it has one. A throw or a
 * rejected promise is logged with `label`, never thrown: unloading goes on.
 */
export function disposeInstance(instance: unknown, label: string, logger: Logger): void {
  if (typeof instance !== 'object' || instance === null) return;
  const holder = instance as Record<PropertyKey, unknown>;
  const method = DISPOSE !== undefined && typeof holder[DISPOSE] === 'function' ? holder[DISPOSE] : holder['dispose'];
  if (typeof method !== 'function') return;
  const fail = (error: unknown): void => logger.error({ component: label, error: describeError(error) }, `disposing the singleton ${label} failed; unloading goes on`);
  try {
    const result: unknown = method.call(instance);
    if (result instanceof Promise) result.catch(fail);
  } catch (error) {
    fail(error);
  }
}
