import type { ServiceIdentifier } from 'inversify';
import type { ComponentClass } from '../../kernel/components/component-metadata.js';
import { describeError } from '../../kernel/errors/describe-error.js';
import { type Injection, readInjections } from '../../kernel/registry/read-injections.js';
import { isSignature, parseSignature } from '../../kernel/signature/parse-signature.js';
import { TOKENS } from '../../kernel/tokens.js';
import { dependenciesOf, type PluginManifest } from '../manifest/plugin-manifest.js';

export interface InjectionCheckInput {
  manifest: PluginManifest;
  /** The plugin's components, each with its signature. */
  components: readonly { signature: string; componentClass: ComponentClass }[];
  /** True when an injection of `identifier` finds something now. */
  isBound(identifier: ServiceIdentifier): boolean;
  /** True when plugin `id` has components registered now. */
  isLoaded(id: string): boolean;
}

/** An injection of another plugin's component that the manifest does not declare a dependency on. */
export interface UndeclaredInjection {
  component: string;
  injects: string;
  provider: string;
  message: string;
}

export interface InjectionCheck {
  /** Injections nothing provides (and not `@optional()`), or metadata inversify refuses: each fails the plugin. */
  problems: string[];
  /** Injections of other plugins' components outside the manifest's dependencies: their load order is not guaranteed. */
  undeclared: UndeclaredInjection[];
}

const TOKEN_NAMES = new Map<symbol, string>(Object.entries(TOKENS).map(([name, token]) => [token, `TOKENS.${name}`]));

function describeIdentifier(identifier: ServiceIdentifier): string {
  if (typeof identifier === 'string') return JSON.stringify(identifier);
  if (typeof identifier === 'symbol') return TOKEN_NAMES.get(identifier) ?? identifier.toString();
  return `class ${identifier.name || '(anonymous)'}`;
}

/**
 * Checks, from metadata alone (no component is built), that everything a plugin's
 * components inject is bound now: a core token, or a signature this plugin or an already
 * loaded one registered, unless the injection is `@optional()`. Pure: the caller decides
 * what to do with the problems and the undeclared injections.
 */
export function checkComponentInjections(input: InjectionCheckInput): InjectionCheck {
  const { manifest } = input;
  const declared = new Map(dependenciesOf(manifest).map((dependency) => [dependency.id, dependency]));
  const problems: string[] = [];
  const undeclared: UndeclaredInjection[] = [];
  for (const { signature, componentClass } of input.components) {
    let injections: Injection[];
    try {
      injections = readInjections(componentClass);
    } catch (error) {
      problems.push(`component ${signature}: ${describeError(error)}`);
      continue;
    }
    for (const { place, identifier, optional } of injections) {
      const shown = describeIdentifier(identifier);
      const provider = typeof identifier === 'string' && isSignature(identifier) ? parseSignature(identifier).pluginId : undefined;
      const foreign = provider !== undefined && provider !== manifest.id;
      if (foreign && !declared.has(provider)) {
        undeclared.push({
          component: signature,
          injects: identifier as string,
          provider,
          message:
            `component ${signature}: ${place} injects ${shown} of plugin ${provider}, which the manifest of ${manifest.id} does not list in its dependencies, ` +
            `so ${provider} is not guaranteed to load first (declare ${provider} in dependencies)`,
        });
      }
      if (optional || input.isBound(identifier)) continue;
      problems.push(`component ${signature}: ${place} injects ${shown}, ${missingReason(provider, manifest.id, declared.get(provider ?? '')?.optional, input.isLoaded)}`);
    }
  }
  return { problems, undeclared };
}

function missingReason(provider: string | undefined, pluginId: string, optionalDependency: boolean | undefined, isLoaded: (id: string) => boolean): string {
  if (provider === undefined) return 'which nothing binds (mark the argument @optional() if it may be absent)';
  if (provider === pluginId) return `which plugin ${pluginId} does not register (check the name, or mark the argument @optional())`;
  if (optionalDependency === undefined) return `which no loaded plugin provides (declare ${provider} in the manifest's dependencies, or mark the argument @optional())`;
  if (isLoaded(provider)) return `which plugin ${provider} does not register (check the name, or mark the argument @optional())`;
  if (optionalDependency) return `which no loaded plugin provides (${provider} is an optional dependency and is not loaded: mark the argument @optional())`;
  return `which no loaded plugin provides (${provider} is not loaded)`;
}
