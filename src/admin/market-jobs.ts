import { describeError } from '../kernel/errors/describe-error.js';
import type { MarketAction, PluginMarket } from './plugin-market.js';

/** One install, update or remove started from the console, with its progress lines so far. */
export interface MarketJob {
  id: number;
  action: MarketAction;
  name: string;
  state: 'running' | 'succeeded' | 'failed';
  lines: string[];
  /** One line once it ended. */
  summary: string | null;
}

export type MarketJobStart = { started: true; job: MarketJob } | { started: false; running: MarketJob };

// The page polls a job by id; the last few are kept so a slow poll still finds how one ended.
const KEPT_JOBS = 10;

/**
 * Runs the market's changes one at a time (two npm runs in one project would trample each
 * other's node_modules): a start while one runs is refused, naming the running one.
 */
export class MarketJobs {
  readonly #market: PluginMarket;
  #jobs: MarketJob[] = [];
  #nextId = 1;

  constructor(market: PluginMarket) {
    this.#market = market;
  }

  start(action: MarketAction, name: string, onError: (job: MarketJob, error: unknown) => void): MarketJobStart {
    const running = this.running();
    if (running !== undefined) return { started: false, running };
    const job: MarketJob = { id: this.#nextId++, action, name, state: 'running', lines: [], summary: null };
    this.#jobs = [...this.#jobs.slice(-(KEPT_JOBS - 1)), job];
    const progress = (line: string) => job.lines.push(line);
    this.#market[action](name, progress).then(
      (outcome) => {
        job.summary = outcome.summary;
        job.state = outcome.ok ? 'succeeded' : 'failed';
      },
      (error: unknown) => {
        job.summary = `${action} ${name} failed: ${describeError(error)}`;
        job.state = 'failed';
        onError(job, error);
      },
    );
    return { started: true, job };
  }

  running(): MarketJob | undefined {
    return this.#jobs.find((job) => job.state === 'running');
  }

  get(id: number): MarketJob | undefined {
    return this.#jobs.find((job) => job.id === id);
  }

  latest(): MarketJob | undefined {
    return this.#jobs.at(-1);
  }
}

const jobsOfMarket = new WeakMap<PluginMarket, MarketJobs>();

/** The job runner of a market: one per market, so every console of a host shares its lock. */
export function marketJobsOf(market: PluginMarket): MarketJobs {
  let jobs = jobsOfMarket.get(market);
  if (jobs === undefined) {
    jobs = new MarketJobs(market);
    jobsOfMarket.set(market, jobs);
  }
  return jobs;
}
