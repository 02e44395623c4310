/**
 * The notices the host has sent once (an owner told that a task's daily token budget is
 * spent), by key, so a restart on the same day does not send them again.
 */
export interface SentNoticeRepository {
  /** Records `key` as sent at `atMs` (epoch ms); false when it was recorded already (then nothing changes). */
  claim(key: string, atMs: number): boolean;
  /** Whether `key` is recorded. */
  has(key: string): boolean;
}
