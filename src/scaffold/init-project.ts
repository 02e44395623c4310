import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readHostPackageJson } from './host-package.js';
import { projectFiles } from './project-files.js';
import { projectNameProblem } from './project-name-problem.js';

/** A refusal of `moonglass init`, worded for the person who typed the command. */
export class InitRefusal extends Error {
  override name = 'InitRefusal';
}

export interface InitOptions {
  name: string;
  /** The folder the project folder is created in (default: the working folder). */
  parent?: string;
  /** The moonglass dependency written to package.json; default `^<this version>`. */
  moonglassSpec?: string;
}

/**
 * Creates the bot project `<parent>/<name>/` and returns its folder and the files written.
 * Refuses (InitRefusal) an invalid name, or a folder that exists and is not empty: nothing of
 * the person's is ever overwritten.
 */
export function initProject(options: InitOptions): { folder: string; files: string[] } {
  const problem = projectNameProblem(options.name);
  if (problem !== undefined) throw new InitRefusal(`"${options.name}" cannot name a bot project: ${problem}`);
  const folder = resolve(options.parent ?? '.', options.name);
  if (existsSync(folder)) {
    if (!statSync(folder).isDirectory()) throw new InitRefusal(`${folder} exists and is not a folder; choose another name`);
    if (readdirSync(folder).length > 0) throw new InitRefusal(`${folder} exists and is not empty; choose another name or empty it first`);
  }
  const host = readHostPackageJson();
  const files = projectFiles({
    name: options.name,
    moonglassSpec: options.moonglassSpec ?? `^${host.version}`,
    hostVersion: host.version,
    hostDevDependencies: host.devDependencies ?? {},
  });
  for (const [path, text] of files) {
    const file = join(folder, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text, { flag: 'wx' });
  }
  return { folder, files: [...files.keys()] };
}
