import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection, in
 * percent. V8's own factor adapts to the allocation rate and reaches 2-4x under load: a bot
 * answering 1,000 conversations at once held ~90 MiB of live objects but let its heap reach
 * ~270 MiB (process peak 428 MiB) before collecting, since everything a turn allocates lives
 * for the turn's few hundred milliseconds and is promoted. Not a cap: a bot that really holds
 * more keeps growing; only garbage is collected sooner (issue 20, bench/peers.bench.ts).
 * 50% peaked at ~286 MiB at C=1000 once the adapter ran in a thread; 100% at ~327 MiB (still
 * under Koishi's 340-390) for 5% more answers per second (2,207-2,233 -> 2,324-2,344,
 * alternating runs), and no change at one conversation (99 MiB).
 */
export const HEAP_GROWING_PERCENT = 100;

/** Applies HEAP_GROWING_PERCENT to this process (its worker threads included). Once, at start. */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
