import semver from 'semver';

/** `name[@range]` as typed after `moonglass plugin add`. */
export interface PackageSpec {
  name: string;
  /** The range or dist-tag after `@`; `undefined` when none was given (npm's `latest`). */
  range: string | undefined;
}

const NAME_PART = /^[a-z0-9][a-z0-9._~-]*$/;

/**
 * Parses `name`, `name@^1.2`, `@scope/name@latest`. Throws an Error saying what is wrong with
 * the name; a range must be a semver range or a dist-tag (a tarball, path or git URL is not a
 * registry package, whose metadata `add` must read first).
 */
export function parsePackageSpec(text: string): PackageSpec {
  const at = text.indexOf('@', text.startsWith('@') ? 1 : 0);
  const name = at < 0 ? text : text.slice(0, at);
  const range = at < 0 ? undefined : text.slice(at + 1);
  const scoped = /^@([^/]+)\/([^/]+)$/.exec(name);
  const parts = scoped === null ? [name] : [scoped[1]!, scoped[2]!];
  if (name === '' || name.length > 214 || parts.some((part) => !NAME_PART.test(part))) {
    throw new Error(`"${text}" does not name an npm package: expected name, name@range or @scope/name@range with a lower-case URL-safe name`);
  }
  if (range !== undefined && (range === '' || (semver.validRange(range) === null && !/^[a-z][a-z0-9._-]*$/i.test(range)))) {
    throw new Error(`"${text}": "${range}" after @ is neither a version range (like ^1.2.0) nor a dist-tag (like latest)`);
  }
  return { name, range };
}
