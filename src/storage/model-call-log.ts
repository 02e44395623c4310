/** One model request as the usage page counts it. */
export interface ModelCallRecord {
  /** Epoch milliseconds. */
  time: number;
  task: string;
  requestName: string;
  /** The model (name in models.toml) that answered; null when every model failed. */
  model: string | null;
  streamId: string | null;
  success: boolean;
  promptTokens: number | null;
  completionTokens: number | null;
  durationMs: number | null;
}

/** Usage of one task on one local calendar day. */
export interface DailyTaskUsage {
  /** `YYYY-MM-DD`, local time. */
  day: string;
  task: string;
  calls: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
  /** Mean latency of the answered calls, milliseconds; null when none answered. */
  averageMs: number | null;
}

/** The log of model calls behind the web console's usage charts. */
export interface ModelCallLog {
  record(entry: ModelCallRecord): void;
  /** Per day and task, for calls at or after `sinceMs`, oldest day first. */
  dailyUsage(sinceMs: number): DailyTaskUsage[];
  /** Deletes the calls made before `epochMs`; returns how many. For retention. */
  deleteBefore(epochMs: number): number;
}
