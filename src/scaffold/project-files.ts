import { COMPOSE_YAML, DOCKERFILE } from './templates/docker.js';
import { DICE_PLUGIN, DICE_TEST, diceManifest } from './templates/example-plugin.js';
import { packageJson } from './templates/package-json.js';
import { projectReadme } from './templates/readme.js';
import { CONFIG_README, GITIGNORE, NPMRC, TSCONFIG_JSON, VITEST_CONFIG } from './templates/tool-files.js';

export interface ProjectOptions {
  name: string;
  /** What package.json depends on for moonglass: a version range, a `file:` path, a git URL. */
  moonglassSpec: string;
  hostVersion: string;
  /** moonglass's own devDependencies: the project's tools take their versions from it. */
  hostDevDependencies: Record<string, string>;
}

/** Every file of a new bot project, by its path inside the project folder. */
export function projectFiles(options: ProjectOptions): Map<string, string> {
  return new Map([
    ['package.json', packageJson(options)],
    ['README.md', projectReadme(options.name)],
    ['tsconfig.json', TSCONFIG_JSON],
    ['vitest.config.ts', VITEST_CONFIG],
    ['.gitignore', GITIGNORE],
    ['.npmrc', NPMRC],
    ['config/README.md', CONFIG_README],
    ['plugins/dice/_manifest.json', diceManifest(options.hostVersion)],
    ['plugins/dice/plugin.ts', DICE_PLUGIN],
    ['plugins/dice/dice.test.ts', DICE_TEST],
    ['Dockerfile', DOCKERFILE],
    ['compose.yaml', COMPOSE_YAML],
  ]);
}
