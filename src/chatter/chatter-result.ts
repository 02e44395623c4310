/**
 * What a chatter yields. Tagged by `kind`, so a switch over the four is checked by the
 * compiler. Times are in seconds, as the seeds write them.
 */
export type ChatterResult = Wait | Success | Failure | Stop;

/** Extra observations a step reports (for after_chatter_step): `used_tools`, scope, ... */
export type StepData = Record<string, unknown>;

/** Suspend the chatter until a resume event: a new message, or after `time` seconds (`timer`). */
export class Wait {
  readonly kind = 'wait' as const;
  /** Seconds to wait before a `timer` resume; `undefined` waits for a message only. */
  readonly time: number | undefined;
  readonly stepData: StepData;

  constructor(time?: number, stepData: StepData = {}) {
    if (time !== undefined && !(time >= 0)) throw new RangeError(`Wait(time): time must be >= 0 seconds, got ${time}`);
    this.time = time;
    this.stepData = stepData;
  }
}

/** The chatter finished this run successfully. */
export class Success {
  readonly kind = 'success' as const;
  readonly message: string;
  readonly data: unknown;
  readonly stepData: StepData;

  constructor(message = '', data: unknown = undefined, stepData: StepData = {}) {
    this.message = message;
    this.data = data;
    this.stepData = stepData;
  }
}

/** The chatter failed this run; the stream keeps working and the next message starts afresh. */
export class Failure {
  readonly kind = 'failure' as const;
  readonly message: string;
  readonly error: unknown;
  readonly stepData: StepData;

  constructor(message: string, error: unknown = undefined, stepData: StepData = {}) {
    this.message = message;
    this.error = error;
    this.stepData = stepData;
  }
}

export interface StopOptions {
  /** Let a private message (or an @-mention of the bot) wake the stream before the cooldown ends. */
  directMessageWakeEnabled?: boolean;
  /** The chance, 0..1, that such a message wakes it early. */
  directMessageWakeProbability?: number;
  stepData?: StepData;
}

/** End the conversation; no new run starts until `time` seconds have passed AND a new message came. */
export class Stop {
  readonly kind = 'stop' as const;
  /** Cooldown in seconds (0: none). */
  readonly time: number;
  readonly directMessageWakeEnabled: boolean;
  readonly directMessageWakeProbability: number;
  readonly stepData: StepData;

  constructor(time = 0, options: StopOptions = {}) {
    if (!(time >= 0)) throw new RangeError(`Stop(time): time must be >= 0 seconds, got ${time}`);
    this.time = time;
    this.directMessageWakeEnabled = options.directMessageWakeEnabled ?? false;
    this.directMessageWakeProbability = Math.min(1, Math.max(0, options.directMessageWakeProbability ?? 0));
    this.stepData = options.stepData ?? {};
  }
}

/** True for any of the four results (from any copy of the package: checked by shape). */
export function isChatterResult(value: unknown): value is ChatterResult {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return kind === 'wait' || kind === 'success' || kind === 'failure' || kind === 'stop';
}
