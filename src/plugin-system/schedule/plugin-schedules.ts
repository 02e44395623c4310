import { InvalidArgumentError } from '../../kernel/errors/invalid-argument-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { PluginScope } from '../../kernel/scope/plugin-scope.js';
import type { Clock } from '../../kernel/time/clock.js';
import type { ScheduleRepository } from '../../storage/schedule-repository.js';
import { parseCadence } from './cadence.js';
import { ScheduledJob } from './scheduled-job.js';
import type { MissedRunPolicy, PluginScheduleFunction, ScheduleOptions, ScheduleSpec, ScheduledTask } from './schedule-types.js';

export interface PluginSchedulesDeps {
  clock: Clock;
  /** Where persisted jobs keep their last runs. */
  store: ScheduleRepository;
  /** `bot.toml [bot] timezone`; empty or undefined: the machine's zone. */
  timeZone: string | undefined;
}

/** Builds one plugin's `ctx.schedule` over its scope (see `PluginServiceFactories.schedule`). */
export type PluginSchedulesFactory = (pluginId: string, scope: PluginScope, logger: Logger) => PluginScheduleFunction;

const MISSED_POLICIES: readonly MissedRunPolicy[] = ['run_once', 'skip'];
const NAME_MAX_LENGTH = 100;

/**
 * The host's schedules: each plugin's `ctx.schedule` makes jobs owned by its scope (cancelled
 * when it unloads or reloads), with names unique among that plugin's live jobs.
 */
export function createPluginSchedules(deps: PluginSchedulesDeps): PluginSchedulesFactory {
  const liveNames = new Map<string, Set<string>>();
  const timeZone = deps.timeZone === '' ? undefined : deps.timeZone;
  return (pluginId, scope, logger) => {
    const where = `plugin ${pluginId}: ctx.schedule`;
    return (spec: ScheduleSpec, task: ScheduledTask, options: ScheduleOptions = {}) => {
      scope.assertActive('schedule');
      if (typeof task !== 'function') throw new InvalidArgumentError(where, 'task', typeof task, 'a function');
      const cadence = parseCadence(spec, timeZone, where);
      const persist = readPersist(options, where);
      const missed = readMissed(options, where);
      const names = liveNames.get(pluginId) ?? new Set<string>();
      liveNames.set(pluginId, names);
      const name = readName(options, persist, cadence.text, names, where);
      const job = new ScheduledJob({ pluginId, name, cadence, task, clock: deps.clock, logger, store: persist ? deps.store : undefined, missed });
      names.add(name);
      const dispose = scope.effect(`schedule ${name} (${cadence.text})`, () => {
        job.stop();
        names.delete(name);
      });
      try {
        job.start();
      } catch (error) {
        dispose();
        throw error;
      }
      return dispose;
    };
  };
}

/** `ctx.schedule` of a host that wired no schedules (a plugin manager built without one, as in some tests). */
export function unwiredSchedule(pluginId: string): PluginScheduleFunction {
  return () => {
    throw new Error(`plugin ${pluginId} called ctx.schedule(), but this host has no schedule service wired (a plugin manager built without one, as in some tests)`);
  };
}

function readPersist(options: ScheduleOptions, where: string): boolean {
  const persist = options.persist ?? true;
  if (typeof persist !== 'boolean') throw new InvalidArgumentError(where, 'options.persist', persist, 'true or false');
  return persist;
}

function readMissed(options: ScheduleOptions, where: string): MissedRunPolicy {
  const missed = options.missed ?? 'run_once';
  if (!MISSED_POLICIES.includes(missed)) throw new InvalidArgumentError(where, 'options.missed', missed, `one of ${MISSED_POLICIES.map((policy) => `'${policy}'`).join(', ')}`);
  return missed;
}

function readName(options: ScheduleOptions, persist: boolean, specText: string, taken: ReadonlySet<string>, where: string): string {
  const { name } = options;
  if (name === undefined) {
    if (persist) throw new InvalidArgumentError(where, 'options.name', undefined, `a name for this persisted job ("${specText}"): its last run is stored under it; or pass persist: false`);
    let derived = specText;
    for (let suffix = 2; taken.has(derived); suffix += 1) derived = `${specText} #${suffix}`;
    return derived;
  }
  if (typeof name !== 'string' || name.trim() === '' || name.length > NAME_MAX_LENGTH) {
    throw new InvalidArgumentError(where, 'options.name', name, `a non-empty string of at most ${NAME_MAX_LENGTH} characters`);
  }
  if (taken.has(name)) throw new InvalidArgumentError(where, 'options.name', `"${name}"`, 'unique among the plugin’s live jobs (another job has this name)');
  return name;
}
