/** One thing wrong with the docs, at a place a person can open. */
export interface Problem {
  /** Relative to the repository, e.g. `docs/guide/models.md`. */
  file: string;
  line?: number;
  message: string;
}

export function formatProblem(problem: Problem): string {
  return `${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.message}`;
}
