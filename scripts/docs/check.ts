// `npm run docs:check`: fails on anything in the docs that no longer matches the code or leads
// nowhere: a reference page out of date, a broken link or anchor, a guide missing from the
// navigation, an error code without its troubleshooting section, a code sample that does not
// compile (or, for a sample test, does not pass), a config sample the host would refuse, and a
// public API symbol without TSDoc. Each problem is printed as `file:line: what is wrong`.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { checkLinks } from './check/links.js';
import { checkNavigation } from './check/navigation.js';
import { formatProblem, type Problem } from './check/problem.js';
import { checkReadme } from './check/readme.js';
import { checkReferences } from './check/references.js';
import { checkSamples, SAMPLES_ROOT } from './check/samples.js';
import { checkTroubleshooting } from './check/troubleshooting.js';
import { checkTsdoc } from './check/tsdoc.js';
import { readDocPages } from './check/doc-pages.js';
import { publicProgram } from './reference/public-program.js';
import { renderReferences } from './reference/render-references.js';
import type ts from 'typescript';
import { repoRoot } from './repo-root.js';

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const problems: Problem[] = [];

// `npm run docs:check -- guide/models.md en/guide/models.md`: only those pages' links and
// samples (quick, while writing a page); without arguments, everything.
const only = process.argv.slice(2).map((arg) => arg.replace(/^docs\//, ''));
const allPages = readDocPages();
const pages = only.length === 0 ? allPages : allPages.filter((page) => only.includes(page.path));
if (only.length > 0 && pages.length !== only.length) log(`docs:check: no such page: ${only.filter((path) => !pages.some((page) => page.path === path)).join(', ')}`);

// One TypeScript program of the public entries serves the events reference and the TSDoc check.
let publicEntries: ts.Program | undefined;
const program = (): ts.Program => (publicEntries ??= publicProgram());

let referenceCount = 0;
if (only.length === 0) {
  const files = await renderReferences(join(tmpdir(), `moonglass-docs-check-${process.pid}`), program());
  referenceCount = files.size;
  problems.push(...checkReferences(files));
  problems.push(...checkNavigation(allPages), ...checkTroubleshooting(allPages), ...checkReadme());
}
problems.push(...checkLinks(allPages).filter((problem) => only.length === 0 || only.some((path) => problem.file === `docs/${path}`)));
const samples = await checkSamples(pages);
problems.push(...samples.problems);
if (only.length === 0) problems.push(...checkTsdoc(program()));

if (samples.tests.length > 0 && samples.problems.length === 0) {
  const run = runSampleTests(samples.tests.map((test) => test.file));
  if (run !== undefined) problems.push(run);
}
rmSync(join(SAMPLES_ROOT, String(process.pid)), { recursive: true, force: true });

log(`docs:check: ${pages.length} pages, ${referenceCount} reference pages, ${samples.compiled.length} TypeScript samples compiled (${samples.tests.length} of them tests, run), ${samples.validated} config and manifest samples validated`);
for (const skipped of samples.skipped) log(`  not compiled: docs/${skipped.page}:${skipped.line} (${skipped.reason})`);
if (problems.length > 0) {
  for (const problem of problems) log(formatProblem(problem));
  log(`docs:check: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exitCode = 1;
} else {
  log('docs:check: all good');
}

/** Runs the sample tests with vitest and the repo's own test settings; a failure is one problem with vitest's output. */
function runSampleTests(tests: string[]): Problem | undefined {
  const vitest = join(repoRoot, 'node_modules/vitest/vitest.mjs');
  const result = spawnSync(process.execPath, [vitest, 'run', '--config', join(repoRoot, 'scripts/docs/vitest.samples.config.ts'), ...tests.map((test) => relative(repoRoot, test))], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  if (result.status === 0) return undefined;
  const output = `${result.stdout}${result.stderr}`.split('\n').slice(-60).join('\n');
  return { file: 'docs', message: `the sample tests failed:\n${output}` };
}
