import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeError } from '../../kernel/errors/describe-error.js';
import type { Logger } from '../../kernel/logger/logger.js';

/** The keyword a package's `package.json` carries to say it is a moonglass plugin. */
export const PLUGIN_PACKAGE_KEYWORD = 'moonglass-plugin';

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The folders of the plugin packages a bot project depends on: each name in the
 * `dependencies` of `<projectDir>/package.json`, sorted, resolved to
 * `<projectDir>/node_modules/<name>`, that is installed, has `moonglass-plugin` among its
 * `keywords` and a `_manifest.json` at its root. Nothing else counts: a package in
 * node_modules that the project does not depend on is not scanned. A project without a
 * package.json has no packages.
 */
export function pluginPackageFolders(projectDir: string, logger?: Logger): string[] {
  const projectFile = join(projectDir, 'package.json');
  if (!existsSync(projectFile)) return [];
  let dependencies: unknown;
  try {
    const project = readJson(projectFile);
    dependencies = isRecord(project) ? project['dependencies'] : undefined;
  } catch (error) {
    logger?.warn({ file: projectFile, error: describeError(error) }, 'package.json 读不懂，不从依赖中寻找插件包');
    return [];
  }
  if (!isRecord(dependencies)) return [];
  const folders: string[] = [];
  for (const name of Object.keys(dependencies).sort()) {
    const folder = join(projectDir, 'node_modules', ...name.split('/'));
    const packageFile = join(folder, 'package.json');
    let keywords: unknown;
    try {
      const manifest = readJson(packageFile);
      keywords = isRecord(manifest) ? manifest['keywords'] : undefined;
    } catch (error) {
      // Not installed (or unreadable): npm's business, not a plugin the host can judge.
      logger?.debug({ package: name, file: packageFile, error: describeError(error) }, '依赖包未安装或其 package.json 读不懂，不作为插件包');
      continue;
    }
    if (!Array.isArray(keywords) || !keywords.includes(PLUGIN_PACKAGE_KEYWORD)) continue;
    if (!existsSync(join(folder, '_manifest.json'))) {
      logger?.warn({ package: name, folder }, `依赖包带有 ${PLUGIN_PACKAGE_KEYWORD} 关键字，但根目录没有 _manifest.json，不作为插件包`);
      continue;
    }
    folders.push(folder);
  }
  return folders;
}
