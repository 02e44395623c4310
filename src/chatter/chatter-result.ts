/**
 * What a chatter yields. Tagged by `kind`, so a switch over the four is checked by the
 * compiler. Times are in seconds, as the seeds write them.
 */
export type ChatterResult = Wait | Success | Failure | Stop;

/** Extra observations a step reports (for after_chatter_step): `used_tools`, scope, ... */
export type StepData = Record<string, unknown>;

/** Suspend the chatter until a resume event: a new message, or after `time` seconds (`timer`). */
export class Wait {
  /** Always `'wait'`; tells the four results apart. */
  readonly kind = 'wait' as const;
  /** Seconds to wait before a `timer` resume; `undefined` waits for a message only. */
  readonly time: number | undefined;
  /** What the step reports to `after_chatter_step` observers (e.g. `used_tools`); `{}` by default. */
  readonly stepData: StepData;

  constructor(time?: number, stepData: StepData = {}) {
    if (time !== undefined && !(time >= 0)) throw new RangeError(`Wait(time): time must be >= 0 seconds, got ${time}`);
    this.time = time;
    this.stepData = stepData;
  }
}

/** The chatter finished this run successfully. */
export class Success {
  /** Always `'success'`; tells the four results apart. */
  readonly kind = 'success' as const;
  /** A short note on how the run ended, for logs; `''` by default. */
  readonly message: string;
  /** Anything the chatter wants to hand to observers of `after_chatter_step`; the host does not read it. */
  readonly data: unknown;
  /** What the step reports to `after_chatter_step` observers; `{}` by default. */
  readonly stepData: StepData;

  constructor(message = '', data: unknown = undefined, stepData: StepData = {}) {
    this.message = message;
    this.data = data;
    this.stepData = stepData;
  }
}

/** The chatter failed this run; the stream keeps working and the next message starts afresh. */
export class Failure {
  /** Always `'failure'`; tells the four results apart. */
  readonly kind = 'failure' as const;
  /** What went wrong, for logs. */
  readonly message: string;
  /**
   * The error behind the failure, if any; when it (or one of its causes) has a numeric `retryAt`, the stream waits until then before
   * retrying.
   */
  readonly error: unknown;
  /** What the step reports to `after_chatter_step` observers; `{}` by default. */
  readonly stepData: StepData;

  constructor(message: string, error: unknown = undefined, stepData: StepData = {}) {
    this.message = message;
    this.error = error;
    this.stepData = stepData;
  }
}

/** The options of a {@link Stop} besides its cooldown. */
export interface StopOptions {
  /** Let a private message (or an @-mention of the bot) wake the stream before the cooldown ends. */
  directMessageWakeEnabled?: boolean;
  /** The chance, 0..1, that such a message wakes it early. */
  directMessageWakeProbability?: number;
  /** What the step reports to `after_chatter_step` observers; `{}` by default. */
  stepData?: StepData;
}

/** End the conversation; no new run starts until `time` seconds have passed AND a new message came. */
export class Stop {
  /** Always `'stop'`; tells the four results apart. */
  readonly kind = 'stop' as const;
  /** Cooldown in seconds (0: none). */
  readonly time: number;
  /** Whether a private message (or an @-mention of the bot) may wake the stream before the cooldown ends. */
  readonly directMessageWakeEnabled: boolean;
  /** The chance, 0..1 (clamped), that such a message wakes it early. */
  readonly directMessageWakeProbability: number;
  /** What the step reports to `after_chatter_step` observers; `{}` by default. */
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
