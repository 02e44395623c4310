// Every code sample of the written pages is checked as what it claims to be: TypeScript is
// compiled with the repo's compiler options (titled fences of one page form one project and
// `*.test.ts` ones are run), config TOML goes through `moonglass check`'s own validation, and
// a plugin manifest through the host's manifest reader.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { checkConfigFiles, HOST_CONFIG_FILES } from '../../../src/app/check-config-files.js';
import { readTomlFile } from '../../../src/kernel/config/read-toml-file.js';
import { validateConfig } from '../../../src/kernel/config/validate-config.js';
import { describeError } from '../../../src/kernel/errors/describe-error.js';
import { readPluginManifest } from '../../../src/plugin-system/manifest/read-plugin-manifest.js';
import { COMPOSE_YAML, DOCKERFILE } from '../../../src/scaffold/templates/docker.js';
import { fencesOf, type Fence } from '../markdown/fences.js';
import { configFileDocs } from '../reference/config-reference.js';
import { repoRoot } from '../repo-root.js';
import { docsFile, isWrittenPage, type DocPage } from './doc-pages.js';
import type { Problem } from './problem.js';

/**
 * Where samples are written to be compiled and run: ignored by git, inside the repo so
 * `moonglass` resolves to src/, one folder per process so two checks never share files.
 */
export const SAMPLES_ROOT = join(repoRoot, 'docs-samples');

const TS_LANGS = new Set(['ts', 'typescript', 'mts']);
/** Files `moonglass init` writes, which a page may show: shown, they must be what init writes today. */
const SCAFFOLD_FILES = new Map([
  ['Dockerfile', DOCKERFILE],
  ['compose.yaml', COMPOSE_YAML],
]);

const HOST_CONFIG_PATHS = new Set(HOST_CONFIG_FILES.map((host) => `config/${host.name}`));

export interface SampleFile {
  page: string;
  fence: Fence;
  /** Absolute path of the written file. */
  file: string;
}

export interface SampleReport {
  problems: Problem[];
  /** TypeScript files compiled. */
  compiled: SampleFile[];
  /** The `*.test.ts` files among them, to be run by vitest. */
  tests: SampleFile[];
  /** TOML and manifest samples validated. */
  validated: number;
  /** Fences marked `docs:no-compile`, with their reasons. */
  skipped: { page: string; line: number; reason: string }[];
}

/** A page's own folder of samples: `docs-samples/<pid>/en/guide/models/`. */
function pageFolder(root: string, page: string): string {
  return join(root, page.replace(/\.md$/, ''));
}

/** Checks the samples of `pages`, writing them under `root` (emptied first; remove it when done). */
export async function checkSamples(pages: DocPage[], root = join(SAMPLES_ROOT, String(process.pid))): Promise<SampleReport> {
  rmSync(root, { recursive: true, force: true });
  const report: SampleReport = { problems: [], compiled: [], tests: [], validated: 0, skipped: [] };
  for (const page of pages.filter((candidate) => isWrittenPage(candidate.path))) {
    const seen = new Map<string, number>();
    for (const fence of fencesOf(page.text)) {
      if (fence.noCompile !== undefined) {
        report.skipped.push({ page: page.path, line: fence.line, reason: fence.noCompile });
        continue;
      }
      const where = { file: docsFile(page.path), line: fence.line };
      if (fence.title !== undefined && (TS_LANGS.has(fence.lang) || fence.lang === 'json' || fence.lang === 'toml')) {
        const first = seen.get(fence.title);
        if (first !== undefined && TS_LANGS.has(fence.lang)) {
          report.problems.push({ ...where, message: `a second sample titled [${fence.title}] (the first is at line ${first}); one page's titled files form one project, so each title once` });
          continue;
        }
        seen.set(fence.title, fence.line);
      }
      const scaffold = fence.title === undefined ? undefined : SCAFFOLD_FILES.get(fence.title);
      if (scaffold !== undefined) {
        if (fence.code !== scaffold) report.problems.push({ ...where, message: `[${fence.title}] is not the ${fence.title} that moonglass init writes (src/scaffold/templates/docker.ts); show it as it is` });
        report.validated += 1;
      } else if (TS_LANGS.has(fence.lang)) {
        const name = fence.title ?? `sample-line-${fence.line}.ts`;
        if (!/\.(m?ts)$/.test(name)) {
          report.problems.push({ ...where, message: `a TypeScript sample titled [${name}]: the title must be a .ts file path` });
          continue;
        }
        const file = join(pageFolder(root, page.path), name);
        write(file, fence.code);
        const sample = { page: page.path, fence, file };
        report.compiled.push(sample);
        if (name.endsWith('.test.ts')) report.tests.push(sample);
      } else if (fence.lang === 'toml') {
        const problem = await checkToml(pageFolder(root, page.path), fence);
        if (problem !== undefined) report.problems.push({ ...where, message: problem });
        report.validated += 1;
      } else if (fence.lang === 'json' && fence.title?.endsWith('_manifest.json') === true) {
        // A file of the page's project too, so a sample test can load the plugin it describes.
        write(join(pageFolder(root, page.path), fence.title), fence.code);
        const problem = checkManifest(pageFolder(root, page.path), fence);
        if (problem !== undefined) report.problems.push({ ...where, message: problem });
        report.validated += 1;
      }
    }
  }
  report.problems.push(...compile(report.compiled));
  return report;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function checkToml(pageRoot: string, fence: Fence): Promise<string | undefined> {
  const folder = join(pageRoot, `toml-line-${fence.line}`);
  const title = fence.title ?? 'sample.toml';
  const file = join(folder, title);
  write(file, fence.code);
  try {
    const data = readTomlFile(file) ?? {};
    if (HOST_CONFIG_PATHS.has(title) || title.startsWith('config/adapters/')) {
      const adapter = /^config\/adapters\/([a-z0-9_]+)\.toml$/.exec(title)?.[1];
      const check = await checkConfigFiles(join(folder, 'config'), adapter);
      const problems = check.files.filter((report) => report.state === 'invalid').map((report) => report.problem!);
      if (check.adapter.problem !== undefined && adapter !== undefined) problems.push(check.adapter.problem);
      return problems.length === 0 ? undefined : `[${title}] is not valid: ${problems.map((text) => text.replaceAll(folder + '/', '')).join('; ')}`;
    }
    const plugin = /^config\/plugins\/(.+)\.toml$/.exec(title)?.[1];
    if (plugin !== undefined) {
      const doc = (await configFileDocs()).find((candidate) => candidate.path === title);
      if (doc !== undefined) validateConfig(title, doc.schema, data);
    }
    return undefined;
  } catch (error) {
    return `[${title}] is not valid: ${describeError(error).replaceAll(folder + '/', '')}`;
  }
}

function checkManifest(pageRoot: string, fence: Fence): string | undefined {
  const folder = join(pageRoot, `manifest-line-${fence.line}`);
  write(join(folder, '_manifest.json'), fence.code);
  try {
    readPluginManifest(folder);
    return undefined;
  } catch (error) {
    return `[${fence.title}] is not a valid manifest: ${describeError(error).replaceAll(folder + '/', '')}`;
  }
}

/** Compiles every TypeScript sample in one program; a diagnostic is reported at its line in the page. */
function compile(samples: SampleFile[]): Problem[] {
  if (samples.length === 0) return [];
  const configFile = ts.readConfigFile(join(repoRoot, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, repoRoot);
  const program = ts.createProgram({ rootNames: samples.map((sample) => sample.file), options: { ...parsed.options, noEmit: true, rootDir: repoRoot } });
  const byFile = new Map(samples.map((sample) => [sample.file, sample]));
  const problems: Problem[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const sample = diagnostic.file === undefined ? undefined : byFile.get(diagnostic.file.fileName);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (sample === undefined) {
      const where = diagnostic.file === undefined ? '' : `${relative(repoRoot, diagnostic.file.fileName)}: `;
      problems.push({ file: 'docs', message: `compiling the samples: ${where}${message}` });
      continue;
    }
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const title = sample.fence.title === undefined ? '' : `[${sample.fence.title}] `;
    problems.push({ file: docsFile(sample.page), line: sample.fence.line + 1 + line, message: `${title}TS${diagnostic.code}: ${message}` });
  }
  return problems;
}
