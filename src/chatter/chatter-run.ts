import type { ChatterResult } from './chatter-result.js';
import type { WaitResumeEvent } from './wait-resume-event.js';

/** The generator a chatter's `execute()` returns: yields results, is resumed with a resume event. */
export type ChatterGenerator = AsyncGenerator<ChatterResult, void, WaitResumeEvent | undefined>;

/** What the stream loop needs of a chatter: a fresh generator per run. */
export interface ChatterRun {
  /** Starts a fresh run: a new generator, as `BaseChatter.execute` returns. */
  execute(): ChatterGenerator;
}
