import type { TestHost } from '../../src/testing/create-test-host.js';

/**
 * Lets a test host work at this moment of its manual clock while something real answers (a
 * loopback model server, an HTTP client), until `condition` holds; rejects after 15 s of wall
 * time naming `what`.
 */
export async function settleUntil(test: TestHost, condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await test.settle(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
