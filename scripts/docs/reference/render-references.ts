import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { convertPublicApi, writeApiReference } from './api-reference.js';
import { renderCliReference } from './cli-reference.js';
import { renderConfigReference } from './config-reference.js';
import { renderErrorsReference } from './errors-reference.js';
import { renderEventsReference } from './events-reference.js';
import type ts from 'typescript';

/** The generated reference pages: path under docs/reference/ → text. */
export type ReferenceFiles = Map<string, string>;

/**
 * Renders every reference page; the API pages are written by TypeDoc into `scratch` and read
 * back. `program` (the public entries' TypeScript program) is built when not given.
 */
export async function renderReferences(scratch: string, program?: ts.Program): Promise<ReferenceFiles> {
  const files: ReferenceFiles = new Map();
  files.set('config.md', await renderConfigReference());
  files.set('events.md', renderEventsReference(program));
  files.set('errors.md', renderErrorsReference());
  files.set('cli.md', renderCliReference());
  rmSync(scratch, { recursive: true, force: true });
  const api = await convertPublicApi(scratch);
  await writeApiReference(api.app, api.project);
  for (const file of listFiles(scratch)) files.set(`api/${relative(scratch, file)}`, readFileSync(file, 'utf8'));
  rmSync(scratch, { recursive: true, force: true });
  return files;
}

export function listFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(full);
    }
  };
  walk(folder);
  return out.sort();
}

/** Replaces docs/reference/ with `files`. */
export function writeReferences(root: string, files: ReferenceFiles): void {
  rmSync(root, { recursive: true, force: true });
  for (const [path, text] of files) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
