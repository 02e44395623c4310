/**
 * moonglass/testing: what a plugin author needs to test a plugin. Time that moves only when
 * told to, randomness that is fixed, and a logger whose lines can be asserted on.
 *
 * @module moonglass/testing
 */
export { ManualClock, flushMicrotasks } from './kernel/time/manual-clock.js';
export { SeededRandom, SequenceRandom } from './kernel/time/random.js';
export { createMemoryLogger } from './kernel/logger/memory-logger.js';
export { ScriptedModel } from './llm/scripted-model.js';
export { createTestHost } from './testing/create-test-host.js';
export { FakeAdapter } from './testing/fake-adapter.js';

export type { LogRecord } from './kernel/logger/memory-logger.js';
export type { ModelScript, ScriptedReply } from './llm/scripted-model.js';
export type { AppConfigInput } from './kernel/config/app-config.js';
export type { TestHost, TestHostOptions } from './testing/create-test-host.js';
export type { FakeMessageOptions } from './testing/fake-adapter.js';
