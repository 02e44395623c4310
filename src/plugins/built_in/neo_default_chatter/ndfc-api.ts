import type { ChatterGenerator, ChatterResult, WaitResumeEvent } from 'moonglass';
import type { SessionConfigSource } from './session/session-config.js';
import type { NdfcSessionPhase } from './events/ndfc-payloads.js';

// What third parties see of NDFC's service and sessions (exported as types by moonglass/ndfc).

/**
 * `NeoChatterService.plugin`: stands for NDFC itself, so the seed's
 * `createSession({ streamId, plugin: service.plugin })` works without NDFC handing out its
 * plugin (and with it its config). Passing it is the same as passing no plugin.
 */
export interface NdfcPluginHandle {
  /** Always `'neo_default_chatter'`, NDFC's plugin id. */
  readonly id: 'neo_default_chatter';
}

/** The options of `NeoChatterService.createSession`. */
export interface CreateSessionOptions {
  /** The stream the session runs in. */
  streamId: string;
  /**
   * The caller's plugin: the session reads NeoChatterConfig from its `config`, taking NDFC's
   * value for every field that config does not define (or defines with an invalid value).
   * Omitted, or `service.plugin`: NDFC's own config.
   */
  plugin?: SessionConfigSource | NdfcPluginHandle | undefined;
  /** The run's signal (`BaseChatter.signal`): once it is aborted the session acts no more. */
  signal?: AbortSignal | undefined;
}

/**
 * `neo_default_chatter:service:chat_core`, the seed's NeoChatterService: a factory of
 * conversation sessions that keeps no session state (every `getService` gives a new one).
 */
export interface NeoChatterService {
  /** NDFC itself, as a handle with no config (see `NdfcPluginHandle`). */
  readonly plugin: NdfcPluginHandle;
  /** A new session for one run of one stream. */
  createSession(options: CreateSessionOptions): ConversationSession;
  /**
   * Delivers a resume (`sub_agent`, `internal_context` or the plugin's own source) to the
   * host's own conversation of the stream: a waiting conversation goes on at once with a
   * prompt from `:build_resume_prompt`; one that is not running starts and takes it. Each
   * event is taken once. Throws `MG_INVALID_ARGUMENT` for an unknown stream, or a `message`
   * or `timer` source (the host makes those itself).
   */
  resume(streamId: string, event: WaitResumeEvent): void;
}

/**
 * One run of NDFC in one stream (never reused for another run or stream). Drive it with
 * `execute()` (`next(resumeEvent)` answers a Wait), or directly with
 * `for await (const result of session)`, where `session.resume(event)` gives the next step
 * its resume event.
 */
export interface ConversationSession extends AsyncIterable<ChatterResult, void, WaitResumeEvent | undefined> {
  /** The stream this session runs in, fixed at creation. */
  readonly streamId: string;
  /** Where the session's four-phase state machine stands. */
  readonly phase: NdfcSessionPhase;
  /**
   * The run, as an async generator: yields Wait / Success / Failure / Stop; `next(event)`
   * resumes a Wait with a `WaitResumeEvent`. A session runs once: a second call throws.
   */
  execute(): ChatterGenerator;
  /** `execute()`, so `for await (const result of session)` drives the session. */
  [Symbol.asyncIterator](): ChatterGenerator;
  /**
   * Queues `event` as the resume of the session's next step when the driver cannot pass it
   * to `next()` (a `for await` loop): after a Wait, call it, then let the loop go on. An
   * event given to `next()` is taken first.
   */
  resume(event: WaitResumeEvent): void;
}

// `getService('neo_default_chatter:service:chat_core')` is typed wherever moonglass/ndfc is imported.
declare module 'moonglass' {
  interface ServiceTypes {
    /** NDFC's session factory, {@link NeoChatterService}. */
    'neo_default_chatter:service:chat_core': NeoChatterService;
  }
}
