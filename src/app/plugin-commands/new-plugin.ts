import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pluginIdProblem } from '../../plugin-system/manifest/plugin-id-problem.js';
import { pluginPackageFiles } from '../../scaffold/plugin-package-files.js';
import { projectNameProblem } from '../../scaffold/project-name-problem.js';
import { HOST_VERSION } from '../host-version.js';

/** `@scope/name` → `scope.name`; a plain name is its own id. */
function idFromName(name: string): string {
  return name.startsWith('@') ? name.slice(1).replace('/', '.') : name;
}

/**
 * `moonglass plugin new <name>`: creates the folder `<name>` (the part after the scope for
 * `@scope/name`) holding a publishable plugin package. Refuses, exit 1, an invalid npm name
 * or a folder that exists and is not empty, naming it.
 */
export function newPlugin(name: string, out: (line: string) => void, err: (line: string) => void): number {
  const scoped = /^@([^/]+)\/([^/]+)$/.exec(name);
  const problem = scoped === null ? projectNameProblem(name) : (projectNameProblem(scoped[1]!) ?? projectNameProblem(scoped[2]!));
  const id = idFromName(name);
  const idProblem = problem === undefined ? pluginIdProblem(id) : undefined;
  if (problem !== undefined || idProblem !== undefined) {
    err(`moonglass plugin new: "${name}" cannot name a plugin package: ${problem ?? `its id "${id}": ${idProblem}`}`);
    return 1;
  }
  const folder = resolve(scoped === null ? name : scoped[2]!);
  if (existsSync(folder) && (!statSync(folder).isDirectory() || readdirSync(folder).length > 0)) {
    err(`moonglass plugin new: ${folder} exists and is not an empty folder; choose another name or empty it first`);
    return 1;
  }
  const files = pluginPackageFiles({ name, id, hostVersion: HOST_VERSION });
  for (const [path, text] of files) {
    const file = join(folder, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text, { flag: 'wx' });
  }
  out(`created  ${folder} (plugin package ${name}, manifest id ${id})`);
  for (const path of files.keys()) out(`         ${path}`);
  out('next:    npm publish, then npm install it in a bot project');
  return 0;
}
