import type { Newable } from 'inversify';
import type { Logger } from '../logger/logger.js';
import { type Disposer, once } from '../scope/disposer.js';
import type { PluginScope } from '../scope/plugin-scope.js';
import { disposeInstance } from './dispose-instance.js';
import type { Recipe } from './override-recipe.js';
import type { BindingOwner } from './request-owner.js';

/** What a singleton binding builds its one instance with. */
export type SingletonBuild = { useClass: Newable<unknown> } | { useFactory: () => unknown };

/**
 * A binding that builds one instance, the first time it is asked for, and keeps it for as long
 * as the binding stands. The instance is disposed (`disposeInstance`) when the binding goes:
 * the plugin unloads or reloads, an override replaces it, or the override it was is undone.
 * Built while `scope` is active, the disposal is also one of the scope's effects, so an
 * unloading plugin disposes it newest first with everything else it holds.
 */
export function singletonRecipe(label: string, build: SingletonBuild, owner: BindingOwner, scope: PluginScope | undefined, logger: Logger): Recipe {
  return {
    owner,
    bind(container, identifier) {
      const syntax =
        'useClass' in build
          ? container.bind(identifier).to(build.useClass).inSingletonScope()
          : container.bind(identifier).toDynamicValue(build.useFactory).inSingletonScope();
      let release: Disposer | undefined;
      syntax.onActivation((_context, instance) => {
        const dispose = (): void => disposeInstance(instance, label, logger);
        release = scope?.active === true ? scope.effect(`instance ${label}`, dispose) : once(dispose);
        return instance;
      });
      syntax.onDeactivation(() => release?.());
    },
  };
}
