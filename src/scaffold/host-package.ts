import { readFileSync } from 'node:fs';

interface HostPackageJson {
  version: string;
  devDependencies?: Record<string, string>;
}

/** moonglass's own package.json (shipped in the package): its version and the tool versions it is tested with. */
export function readHostPackageJson(): HostPackageJson {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as HostPackageJson;
}
