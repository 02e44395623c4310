import { describeError } from '../kernel/errors/describe-error.js';
import type { ApiResponse } from './admin-api.js';
import type { AdminHostView } from './admin-host-view.js';
import { marketJobsOf } from './market-jobs.js';
import { MARKET_ACTIONS, type MarketAction } from './plugin-market.js';

const NO_MARKET: ApiResponse = {
  status: 404,
  body: { error: 'this host has no plugin market: it was started without one (the console of `moonglass start` has it)' },
};

/**
 * The market's part of the console API (`parts` are the path below `/api`, starting with
 * `market`): `GET market/search?words=…`, `POST market/changes {"action", "name"}` (202 with
 * the job; 409 while another change runs), `GET market/changes/<id>` for its progress lines,
 * and `GET market/changes` for the latest job. Undefined for a path that is not the market's.
 */
export async function handleMarketApi(view: AdminHostView, method: string, parts: readonly string[], body: unknown, query: URLSearchParams): Promise<ApiResponse | undefined> {
  if (parts[0] !== 'market') return undefined;
  const market = view.market;
  if (method === 'GET' && parts.length === 2 && parts[1] === 'search') {
    if (market === undefined) return NO_MARKET;
    const words = (query.get('words') ?? '').split(/\s+/).filter((word) => word !== '');
    if (words.length === 0) return { status: 400, body: { error: 'say what to search for: /api/market/search?words=<words>' } };
    try {
      return { status: 200, body: await market.search(words) };
    } catch (error) {
      view.logger.error({ words, error: describeError(error) }, 'the plugin market search failed');
      return { status: 502, body: { error: `the search failed: ${describeError(error)}` } };
    }
  }
  if (parts.length === 2 && parts[1] === 'changes') {
    if (market === undefined) return NO_MARKET;
    const jobs = marketJobsOf(market);
    if (method === 'GET') return { status: 200, body: { job: jobs.latest() ?? null } };
    if (method === 'POST') {
      const { action, name } = (body ?? {}) as { action?: unknown; name?: unknown };
      if (!MARKET_ACTIONS.includes(action as MarketAction) || typeof name !== 'string' || name.trim() === '') {
        return { status: 400, body: { error: `the body must be {"action": ${MARKET_ACTIONS.map((known) => `"${known}"`).join(' | ')}, "name": "<package>"}` } };
      }
      const start = jobs.start(action as MarketAction, name.trim(), (job, error) =>
        view.logger.error({ job: job.id, error: describeError(error) }, `the plugin market's ${job.action} of ${job.name} failed`),
      );
      if (!start.started) {
        return { status: 409, body: { error: `another change runs: ${start.running.action} ${start.running.name}; wait until it ends`, job: start.running } };
      }
      view.logger.info({ action, name: start.job.name }, 'a plugin package change started from the web console');
      return { status: 202, body: { job: start.job } };
    }
  }
  if (method === 'GET' && parts.length === 3 && parts[1] === 'changes') {
    if (market === undefined) return NO_MARKET;
    const job = marketJobsOf(market).get(Number(parts[2]));
    return job === undefined ? { status: 404, body: { error: `not found: market change ${parts[2]}` } } : { status: 200, body: { job } };
  }
  return undefined;
}
