/** Why an action call failed. */
export type OneBotActionFailure =
  /** The implementation answered `status: 'failed'`. */
  | 'failed'
  /** No answer within `action_timeout_ms`. */
  | 'timeout'
  /** The socket closed before the answer came (or was not open). */
  | 'closed'
  /** Nothing is connected, so the action was never sent. */
  | 'no_connection'
  /** The answer lacked what the caller needs (a `message_id` for a send). */
  | 'bad_answer';

export interface OneBotActionErrorFacts {
  action: string;
  failure: OneBotActionFailure;
  retcode?: number;
  /** The implementation's own words (`wording`, else `message`), when it gave any. */
  detail?: string;
  timeoutMs?: number;
  /** The bot account the action was meant for (`no_connection`: that account is not connected). */
  account?: string;
  /** `no_connection` for an account: the accounts that are connected, to show what is instead. */
  connectedAccounts?: readonly string[];
  /** `closed`: whether the request had been written to the socket (false: it never left). */
  written?: boolean;
}

function describe(facts: OneBotActionErrorFacts): string {
  switch (facts.failure) {
    case 'failed':
      return `OneBot action "${facts.action}" failed: retcode ${facts.retcode ?? '?'}${facts.detail === undefined ? '' : `, ${facts.detail}`}`;
    case 'timeout':
      return `OneBot action "${facts.action}" got no answer within ${facts.timeoutMs ?? '?'} ms (action_timeout_ms)`;
    case 'closed':
      return `OneBot action "${facts.action}" aborted: connection closed`;
    case 'no_connection':
      if (facts.account !== undefined) {
        const connected = facts.connectedAccounts ?? [];
        return `OneBot action "${facts.action}" not sent: account ${facts.account} is not connected (connected: ${connected.length === 0 ? 'none' : connected.join(', ')})`;
      }
      return `OneBot action "${facts.action}" not sent: no OneBot connection${facts.detail === undefined ? '' : ` (${facts.detail})`}`;
    case 'bad_answer':
      return `OneBot action "${facts.action}" answered without ${facts.detail ?? 'the expected data'}`;
  }
}

/** An action call that did not succeed; the message names the action and what happened. */
export class OneBotActionError extends Error {
  readonly action: string;
  readonly failure: OneBotActionFailure;
  readonly retcode: number | undefined;
  /** The account the action was meant for, when the caller named one. */
  readonly account: string | undefined;
  /**
   * What the failure means for the host's outbox: `retry` when the request never left
   * (nothing connected, the socket not open), `in_doubt` when it left and no answer came (a
   * timeout, the socket closed while waiting, an answer without a message id), `refused`
   * when the implementation said no.
   */
  readonly deliveryFailure: 'retry' | 'in_doubt' | 'refused';

  constructor(facts: OneBotActionErrorFacts) {
    super(describe(facts));
    this.name = 'OneBotActionError';
    this.action = facts.action;
    this.failure = facts.failure;
    this.retcode = facts.retcode;
    this.account = facts.account;
    this.deliveryFailure = deliveryFailureOf(facts);
  }
}

function deliveryFailureOf(facts: OneBotActionErrorFacts): OneBotActionError['deliveryFailure'] {
  switch (facts.failure) {
    case 'no_connection':
      return 'retry';
    case 'closed':
      return facts.written === false ? 'retry' : 'in_doubt';
    case 'failed':
      return 'refused';
    case 'timeout':
    case 'bad_answer':
      return 'in_doubt';
  }
}
