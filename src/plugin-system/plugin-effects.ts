import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { ComponentRegistry, OverrideTarget } from '../kernel/registry/component-registry.js';
import type { PluginScope } from '../kernel/scope/plugin-scope.js';
import type { Disposer } from '../kernel/scope/disposer.js';
import type { Clock, TimerHandle } from '../kernel/time/clock.js';

/** The part of `ctx` that registers work owned by the plugin: undone, newest first, when it unloads. */
export interface PluginEffects {
  /**
   * Runs `callback` once after `delayMs` on the host's clock. Cancelled when the plugin
   * unloads or reloads, or when the returned disposer is called. A callback that throws
   * (or rejects) is logged with the plugin's id.
   */
  setTimeout(callback: () => unknown, delayMs: number): Disposer;
  /** Runs `callback` every `everyMs` on the host's clock, until the plugin unloads or the disposer is called. */
  setInterval(callback: () => unknown, everyMs: number): Disposer;
  /**
   * Runs `setup` now and keeps the cleanup it returns (if any) for when the plugin unloads
   * or the returned disposer is called, whichever comes first (as cordis's `ctx.effect`).
   */
  effect(setup: () => (() => void) | void, label?: string): Disposer;
  /**
   * Rebinds a component signature or a core token to `target` as this plugin's own: the
   * override class gets this plugin (`TOKENS.Plugin`), and the override is undone when the
   * plugin unloads or reloads, or when the returned disposer is called. Checked before it
   * binds (see `ComponentRegistry.override`).
   */
  override<T>(identifier: string | symbol, target: OverrideTarget<T>): Disposer;
  /** Labels of what this plugin holds now (bindings, subscriptions, tools, timers, effects), oldest first. */
  effects(): readonly string[];
}

/** `ctx`'s effect methods over a plugin's own scope: a plugin reaches its scope through them, never another's. */
export function createPluginEffects(scope: PluginScope, clock: Clock, logger: Logger, registry: ComponentRegistry): PluginEffects {
  const run = (what: string, callback: () => unknown): void => {
    try {
      const result = callback();
      if (result instanceof Promise) result.catch((error: unknown) => logger.error({ error: describeError(error) }, `a ${what} callback of the plugin failed`));
    } catch (error) {
      logger.error({ error: describeError(error) }, `a ${what} callback of the plugin failed`);
    }
  };
  return Object.freeze({
    setTimeout(callback: () => unknown, delayMs: number): Disposer {
      scope.assertActive('setTimeout');
      let handle: TimerHandle | undefined;
      const dispose = scope.effect(`timeout ${delayMs} ms`, () => {
        if (handle !== undefined) clock.clearTimeout(handle);
        handle = undefined;
      });
      handle = clock.setTimeout(() => {
        handle = undefined;
        dispose(); // fired: the effect is over
        run('setTimeout', callback);
      }, delayMs);
      return dispose;
    },
    setInterval(callback: () => unknown, everyMs: number): Disposer {
      scope.assertActive('setInterval');
      if (!(everyMs > 0)) throw new RangeError(`ctx.setInterval: everyMs must be a positive number of milliseconds, got ${String(everyMs)}`);
      let handle: TimerHandle | undefined;
      let stopped = false;
      const arm = (): void => {
        handle = clock.setTimeout(() => {
          if (stopped) return;
          run('setInterval', callback);
          if (!stopped) arm();
        }, everyMs);
      };
      const dispose = scope.effect(`interval ${everyMs} ms`, () => {
        stopped = true;
        if (handle !== undefined) clock.clearTimeout(handle);
      });
      arm();
      return dispose;
    },
    effect(setup: () => (() => void) | void, label = 'effect'): Disposer {
      scope.assertActive(label);
      const cleanup = setup();
      return scope.effect(label, () => {
        if (typeof cleanup === 'function') cleanup();
      });
    },
    override: <T>(identifier: string | symbol, target: OverrideTarget<T>): Disposer => registry.override(identifier as never, target, scope),
    effects: () => scope.effects(),
  });
}
