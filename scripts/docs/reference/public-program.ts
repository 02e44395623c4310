import ts from 'typescript';
import { repoRoot } from '../repo-root.js';

/** A TypeScript program over the three public entries, with the repo's compiler options. */
export function publicProgram(): ts.Program {
  const configFile = ts.readConfigFile(`${repoRoot}/tsconfig.json`, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, repoRoot);
  return ts.createProgram({
    rootNames: ['src/index.ts', 'src/ndfc.ts', 'src/testing.ts'].map((file) => `${repoRoot}/${file}`),
    options: { ...parsed.options, noEmit: true },
  });
}
