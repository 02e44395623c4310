import type { OneBotPeer, PeerActionRequest } from '../../test/support/onebot-peer.js';
import { conversationText, parseConversationText, type PlannedConversation } from './account-conversations.js';
import { answerText } from './answer-text.js';

const DEMO_PREFIX = '（演示模型）收到：';
/** Message ids the users' messages carry: above the peers' own counters (which number the bot's sends), unique over all accounts. */
const MESSAGE_ID_BASE = 100_000_000;
/** How long a finished run keeps listening for a late second answer. */
const SETTLE_MS = 2_000;

/** What one account's conversations saw. */
export interface AccountTurns {
  /** From each message's push to its first answer (wherever that arrived). */
  latenciesMs: number[];
  /** From the start to this account's last conversation finishing (the run's end if some did not). */
  wallMs: number;
  conversations: number;
  finished: number;
}

export interface MultiAccountTurns {
  perAccount: AccountTurns[];
  wallMs: number;
  /** How many answers quoted each message text. */
  answersPerMessage: Map<string, number>;
  /** Answers that arrived on another account's connection than the message was sent to. */
  wrongPeer: number;
  /** Answers on the right connection, but addressed to another user than the one who wrote. */
  wrongUser: number;
  /** Answers that quoted no message that was sent. */
  strayAnswers: number;
  /** Set when the run stopped before every conversation finished: why. */
  stalled?: string;
}

export interface TurnLoad {
  conversations: readonly PlannedConversation[];
  messagesPerConversation: number;
  /** No new answer for this long ends the run as stalled (reported, not thrown). */
  stallAfterMs: number;
}

/**
 * Closed-loop conversations over several peers, one per bot account: every conversation
 * sends message 0 on its account's peer, and each answer to its newest message sends the
 * next, until each has had `messagesPerConversation` answers. All talk at once. Answers are
 * watched on every peer, so one arriving on another account's connection is counted (and
 * still moves its conversation on, so the run finishes and the count is complete).
 */
export function converseOverAccounts(peers: readonly OneBotPeer[], load: TurnLoad): Promise<MultiAccountTurns> {
  const { conversations, messagesPerConversation, stallAfterMs } = load;
  const pushedAt = new Map<string, number>();
  const answersPerMessage = new Map<string, number>();
  const current = new Array<number>(conversations.length).fill(-1);
  const perAccount: AccountTurns[] = peers.map(() => ({ latenciesMs: [], wallMs: 0, conversations: 0, finished: 0 }));
  for (const conversation of conversations) perAccount[conversation.account]!.conversations += 1;
  let wrongPeer = 0;
  let wrongUser = 0;
  let strayAnswers = 0;
  let finished = 0;
  let lastProgressAt = performance.now();
  const started = performance.now();

  const send = (index: number) => {
    const conversation = conversations[index]!;
    const next = (current[index]! += 1);
    const message = conversationText(index, next);
    pushedAt.set(message, performance.now());
    peers[conversation.account]!.pushPrivateMessage({ userId: conversation.userId, nickname: conversation.nickname, message, messageId: MESSAGE_ID_BASE + index * messagesPerConversation + next });
  };

  return new Promise((resolve, reject) => {
    if (conversations.length === 0 || messagesPerConversation < 1) {
      reject(new Error('converseOverAccounts: nothing to send (no conversations or no messages)'));
      return;
    }
    let done = false;
    const unsubscribe: (() => void)[] = [];
    const finish = (stalled?: string) => {
      if (done) return;
      done = true;
      clearInterval(watchdog);
      const wallMs = performance.now() - started;
      for (const account of perAccount) if (account.finished < account.conversations) account.wallMs = wallMs;
      // Keep listening a little: a second answer to any message still counts against the run.
      setTimeout(() => {
        for (const stop of unsubscribe) stop();
        resolve({ perAccount, wallMs, answersPerMessage, wrongPeer, wrongUser, strayAnswers, ...(stalled === undefined ? {} : { stalled }) });
      }, SETTLE_MS);
    };
    const watchdog = setInterval(() => {
      if (performance.now() - lastProgressAt < stallAfterMs) return;
      const waiting = conversations.length - finished;
      finish(`no answer for ${(stallAfterMs / 1000).toFixed(0)} s with ${waiting} of ${conversations.length} conversations unfinished`);
    }, 1_000);

    const onAnswer = (peerAccount: number, request: PeerActionRequest) => {
      if (request.action !== 'send_private_msg' && request.action !== 'send_msg') return;
      const content = answerText(request.params['message']);
      const quoted = content.startsWith(DEMO_PREFIX) ? content.slice(DEMO_PREFIX.length) : content;
      const named = parseConversationText(quoted);
      const at = pushedAt.get(quoted);
      if (named === undefined || at === undefined) {
        strayAnswers += 1;
        return;
      }
      const conversation = conversations[named.conversation]!;
      if (peerAccount !== conversation.account) wrongPeer += 1;
      else if (Number(request.params['user_id']) !== conversation.userId) wrongUser += 1;
      const count = (answersPerMessage.get(quoted) ?? 0) + 1;
      answersPerMessage.set(quoted, count);
      if (count > 1 || done) return; // a second answer: counted, and nothing more happens
      lastProgressAt = performance.now();
      const account = perAccount[conversation.account]!;
      account.latenciesMs.push(lastProgressAt - at);
      if (named.index !== current[named.conversation]) return; // an old one
      if (named.index + 1 < messagesPerConversation) {
        try {
          send(named.conversation);
        } catch (error) {
          finish(`could not push the next message of conversation ${named.conversation}: ${(error as Error).message}`);
        }
        return;
      }
      account.finished += 1;
      if (account.finished === account.conversations) account.wallMs = lastProgressAt - started;
      if (++finished === conversations.length) finish();
    };
    peers.forEach((peer, account) => unsubscribe.push(peer.onAction((request) => onAnswer(account, request))));
    for (let index = 0; index < conversations.length; index += 1) send(index);
  });
}
