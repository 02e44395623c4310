import type { OutboundDelivery, OutboundSink } from '../../src/chat/outbound-sink.js';

/** An outbound sink that counts deliveries and lets a bench wait for the n-th one. */
export class CountingSink implements OutboundSink {
  count = 0;
  #waiters: { count: number; resolve: () => void }[] = [];

  async deliver(_delivery: OutboundDelivery): Promise<{ messageId: string }> {
    this.count += 1;
    this.#waiters = this.#waiters.filter((waiter) => (this.count >= waiter.count ? (waiter.resolve(), false) : true));
    return { messageId: `out-${this.count}` };
  }

  until(count: number): Promise<void> {
    return this.count >= count ? Promise.resolve() : new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }
}
