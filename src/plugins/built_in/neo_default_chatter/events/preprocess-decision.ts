/** The fields of a `PreprocessDecision`; every one is optional when building one. */
export interface PreprocessDecisionInit {
  /** Answer this round's messages now. Default false. */
  proceed?: boolean;
  /** Why not (for logs). Default `''`. */
  reason?: string;
  /** Text appended to the user prompt's extra info. Default `''`. */
  extra?: string;
  /** With `proceed` false: end the conversation with this cooldown (minutes). Default null. */
  force_stop_minutes?: number | null;
  /** Whether the event was really published. Default false. */
  published?: boolean;
  /** The params the chain ended with. Default `{}`. */
  raw_params?: Record<string, unknown>;
}

/**
 * What the session makes of a `:preprocess` publish (the seed's dataclass, same field names
 * and defaults).
 */
export class PreprocessDecision {
  /** Answer this round's messages now. Default false. */
  readonly proceed: boolean;
  /** Why not (for logs). Default `''`. */
  readonly reason: string;
  /** The `mutations` merged into text, appended to the user prompt's extra info. Default `''`. */
  readonly extra: string;
  /** With `proceed` false: flush and end the conversation with this cooldown (minutes). Default null. */
  readonly force_stop_minutes: number | null;
  /** Whether the event was really published; false when nobody subscribes (the message then proceeds). */
  readonly published: boolean;
  /** The params the chain ended with (the pre-filled ones when not published). Default `{}`. */
  readonly raw_params: Record<string, unknown>;

  constructor(init: PreprocessDecisionInit = {}) {
    this.proceed = init.proceed ?? false;
    this.reason = init.reason ?? '';
    this.extra = init.extra ?? '';
    this.force_stop_minutes = init.force_stop_minutes ?? null;
    this.published = init.published ?? false;
    this.raw_params = init.raw_params ?? {};
  }

  /** The decision a chain's final params give (published). Values of the wrong type take their defaults. */
  static fromParams(params: Record<string, unknown>): PreprocessDecision {
    const minutes = params['force_stop_minutes'];
    return new PreprocessDecision({
      proceed: params['proceed'] === true,
      reason: typeof params['reason'] === 'string' ? params['reason'] : '',
      extra: mergeMutations(params['mutations']),
      force_stop_minutes: typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0 ? minutes : null,
      published: true,
      raw_params: params,
    });
  }
}

/**
 * `mutations` as text: a string as is; an object as `key: value` lines (non-string values as
 * JSON), in key order; anything else (and an empty object) as `''`.
 */
export function mergeMutations(mutations: unknown): string {
  if (typeof mutations === 'string') return mutations;
  if (typeof mutations !== 'object' || mutations === null || Array.isArray(mutations)) return '';
  return Object.entries(mutations)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))}`)
    .join('\n');
}
