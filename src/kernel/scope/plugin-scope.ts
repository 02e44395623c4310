import type { Logger } from '../logger/logger.js';
import { describeError } from '../errors/describe-error.js';
import { ScopeInactiveError } from '../errors/scope-inactive-error.js';
import type { Disposer } from './disposer.js';

interface Effect {
  label: string;
  dispose: () => void;
  done: boolean;
}

/**
 * Owns everything one plugin registered: bindings, subscriptions, tools, timers.
 * Each registration is an effect with a label and a disposer; disposing the scope runs the
 * effects in reverse order, logs each failure and carries on. A disposed scope refuses new
 * effects with `ScopeInactiveError`.
 */
export class PluginScope {
  /** The id of the plugin the scope belongs to. */
  readonly id: string;
  readonly #logger: Logger;
  readonly #effects: Effect[] = [];
  #active = true;

  constructor(id: string, logger: Logger) {
    this.id = id;
    this.#logger = logger;
  }

  /** False once the scope is disposed; then new effects are refused. */
  get active(): boolean {
    return this.#active;
  }

  /** Throws `ScopeInactiveError` when the scope is disposed. */
  assertActive(label: string): void {
    if (!this.#active) throw new ScopeInactiveError(this.id, label);
  }

  /**
   * Records an effect. `dispose` runs once: when the returned disposer is called, or when
   * the scope is disposed, whichever comes first.
   */
  effect(label: string, dispose: () => void): Disposer {
    this.assertActive(label);
    const effect: Effect = { label, dispose, done: false };
    this.#effects.push(effect);
    return () => {
      if (effect.done) return;
      effect.done = true;
      const index = this.#effects.indexOf(effect);
      if (index >= 0) this.#effects.splice(index, 1);
      dispose();
    };
  }

  /** Labels of the live effects, oldest first: what this plugin currently holds. */
  effects(): string[] {
    return this.#effects.map((effect) => effect.label);
  }

  /** Runs every live effect's disposer, newest first. Returns how many failed. Idempotent. */
  dispose(): number {
    this.#active = false;
    let failures = 0;
    while (this.#effects.length > 0) {
      const effect = this.#effects.pop()!;
      if (effect.done) continue;
      effect.done = true;
      try {
        effect.dispose();
      } catch (error) {
        failures += 1;
        this.#logger.error({ scope: this.id, effect: effect.label, error: describeError(error) }, 'a disposer failed; unloading goes on');
      }
    }
    return failures;
  }
}
