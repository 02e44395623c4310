import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './support/temp-dir.js';

// DESIGN.md: imports point downward only; built-in plugins use only the public API.
const LAYERS: readonly (readonly string[])[] = [
  ['app', 'testing', 'scaffold'],
  ['admin'],
  ['adapters'],
  ['commands'],
  ['plugin-system'],
  ['mcp', 'media'],
  ['chatter'],
  ['chat'],
  ['tools'],
  ['llm'],
  ['storage'],
  ['kernel'],
];
const SRC = join(projectRoot, 'src');

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(file: string): number | undefined {
  const top = relative(SRC, file).split('/')[0]!;
  const index = LAYERS.findIndex((layer) => layer.includes(top));
  return index < 0 ? undefined : index;
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]!);
}

describe('the layers of DESIGN.md', () => {
  it('no module imports from a layer above its own', () => {
    const problems: string[] = [];
    for (const file of files(SRC)) {
      const own = layerOf(file);
      if (own === undefined) continue;
      for (const specifier of imports(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier);
        const theirs = layerOf(target);
        if (theirs !== undefined && theirs < own) problems.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every folder of src/ is in a layer (built-in plugins are checked below)', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    const outside = folders.filter((name) => !LAYERS.some((layer) => layer.includes(name)) && name !== 'plugins');
    expect(outside).toEqual([]);
  });

  it('built-in plugins import only moonglass, packages and their own files', () => {
    const root = join(SRC, 'plugins', 'built_in');
    const problems: string[] = [];
    for (const file of files(root)) {
      const plugin = relative(root, file).split('/')[0]!;
      for (const specifier of imports(file)) {
        if (!specifier.startsWith('.')) {
          if (specifier.startsWith('moonglass/') && specifier !== 'moonglass/ndfc') problems.push(`${relative(SRC, file)} imports ${specifier}`);
          continue;
        }
        const target = relative(join(root, plugin), resolve(dirname(file), specifier));
        if (target.startsWith('..')) problems.push(`${relative(SRC, file)} imports ${specifier}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
