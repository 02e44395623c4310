import semver from 'semver';
import * as z from 'zod';
import { pluginIdProblem } from './plugin-id-problem.js';

/** Strict `x.y.z`: three non-negative integers without leading zeros, nothing else. */
export const STRICT_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

const nonEmptyText = z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' });

const strictVersion = z
  .string({ error: 'must be a string' })
  .regex(STRICT_VERSION, { error: '只支持 x.y.z 三段非负整数版本号 (strict x.y.z, e.g. "0.1.0")' });

function bothStrict(range: { min_version: unknown; max_version: unknown }): boolean {
  return typeof range.min_version === 'string' && typeof range.max_version === 'string' && STRICT_VERSION.test(range.min_version) && STRICT_VERSION.test(range.max_version);
}

const versionRange = z
  .string({ error: 'must be a semver range string such as "^1.2.0"' })
  .refine((range) => semver.validRange(range) !== null, { error: 'is not a semver range (e.g. "^1.2.0", ">=1.0.0 <2.0.0", "*")' });

/**
 * `dependencies`: the plugins this one needs, by id, each with a semver range of their
 * `version`, or `{ version, optional: true }` for one it can do without.
 */
export const PluginDependenciesSchema = z.record(
  nonEmptyText,
  z.union([versionRange, z.object({ version: versionRange, optional: z.boolean({ error: 'must be true or false' }).default(false) })]),
);

/** The closed interval of host versions a plugin runs on. */
export const HostApplicationSchema = z
  .object({
    min_version: strictVersion,
    max_version: strictVersion,
  })
  .refine((range) => !bothStrict(range) || compareVersions(range.min_version, range.max_version) <= 0, {
    error: 'host_application 版本区间非法：min_version 高于 max_version',
    path: ['min_version'],
  });

/**
 * `_manifest.json`: who the plugin is. Six fields are required; unknown top-level keys are
 * accepted (and kept) so that manifests can grow without breaking older hosts.
 */
export const PluginManifestSchema = z.looseObject({
  manifest_version: z.literal(1, { error: '清单格式版本必须是 1 (manifest_version must be exactly 1)' }),
  id: nonEmptyText.superRefine((id, context) => {
    const problem = pluginIdProblem(id);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  }),
  plugin_type: z.enum(['tool', 'adapter'], { error: 'plugin_type 不是合法类型：must be "tool" or "adapter"' }),
  name: nonEmptyText,
  version: nonEmptyText,
  description: nonEmptyText,
  host_application: HostApplicationSchema.optional(),
  dependencies: PluginDependenciesSchema.optional(),
});

/** One declared dependency, normalised. */
export interface PluginDependency {
  /** The id of the plugin depended on. */
  id: string;
  /** The version range it must satisfy, as written in the manifest. */
  range: string;
  /** True when the plugin loads even if the dependency is missing, fails or has a version outside the range. */
  optional: boolean;
}

/** A manifest's `dependencies`, as a list. */
export function dependenciesOf(manifest: PluginManifest): PluginDependency[] {
  return Object.entries(manifest.dependencies ?? {}).map(([id, spec]) =>
    typeof spec === 'string' ? { id, range: spec, optional: false } : { id, range: spec.version, optional: spec.optional },
  );
}

/** A plugin's `_manifest.json` after validation (the host reads it before any of the plugin's code). */
export type PluginManifest = z.output<typeof PluginManifestSchema>;

/** Compares two strict versions numerically (1.2.10 > 1.2.9). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
