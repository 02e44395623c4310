import { planConversations, parseConversationText, type PlannedConversation } from './support/account-conversations.js';
import { converseOverAccounts, type AccountTurns, type MultiAccountTurns } from './support/account-turns.js';
import { BenchBot, type StoredCounts, type StoredInbound } from './support/bench-bot.js';
import { processMemoryMiB } from './support/process-memory.js';
import { judgeCondition } from './support/goal.js';

// Several accounts: one bot (host process and OneBot v11 adapter process, as `npm start` runs
// them) with four loopback peers connected at once in reverse mode, each with its own
// X-Self-ID, as four NapCat instances logged in to four QQ accounts would be. 1,000 private
// conversations are dealt over the four accounts (250 each); in each pair of accounts the
// first fifth of the conversations are with the same users, so those users talk to two
// accounts at once: two conversations, each to be answered on its own account's connection.
// The model is the instant offline demo model (it quotes the message), typing delay and
// message buffer are off, every user waits for the answer before sending the next message,
// and all talk at once, as in bench/load.bench.ts.
//
// Baseline, in the same run: the same bot with one account carrying all the conversations
// (every user distinct). The checks are the same for both: each message stored once and
// answered exactly once, no answer quoting nothing sent; and for the accounts: each answer
// arrived on the connection of the account the message was sent to, and each conversation
// was stored as its own stream, belonging to that account.

export interface AccountsLoadOptions {
  conversations: number;
  messagesPerConversation: number;
  accounts: number;
  /** Fraction of each paired account's conversations held with users who also talk to the partner account. */
  sharedFraction: number;
}

/** 10 messages each (load.bench.ts: 20) keeps the two runs within ~3 minutes on 2 cores; the queueing is steady long before. */
export const DEFAULT_ACCOUNTS_LOAD: AccountsLoadOptions = { conversations: 1_000, messagesPerConversation: 10, accounts: 4, sharedFraction: 0.2 };

/** Self ids of the bot accounts: 10001, 10002, ... */
const selfIdOf = (account: number) => String(10_001 + account);
/** No new answer for this long ends a run as stalled. */
const STALL_AFTER_MS = 20_000;

interface AccountsRun {
  plan: readonly PlannedConversation[];
  selfIds: readonly string[];
  turns: MultiAccountTurns;
  stored: StoredCounts;
  inbound: StoredInbound[];
  hostPeakMiB: number | undefined;
  adapterPeakMiB: number | undefined;
}

async function throughTheBot(options: AccountsLoadOptions, accounts: number, label: string): Promise<AccountsRun> {
  const plan = planConversations(options.conversations, accounts, accounts === 1 ? 0 : options.sharedFraction);
  const selfIds = Array.from({ length: accounts }, (_, account) => selfIdOf(account));
  const bot = await BenchBot.start({ prefix: 'accounts-load-', selfIds });
  try {
    console.error(`accounts-load: ${label}: the bot is ready and ${accounts} peer(s) connected`);
    const turns = await converseOverAccounts(bot.peers, { conversations: plan, messagesPerConversation: options.messagesPerConversation, stallAfterMs: STALL_AFTER_MS });
    const hostPeakMiB = processMemoryMiB(bot.hostPid, 'VmHWM');
    const adapterPid = bot.adapterPid();
    const adapterPeakMiB = adapterPid === undefined ? undefined : processMemoryMiB(adapterPid, 'VmHWM');
    await bot.stop();
    return { plan, selfIds, turns, stored: bot.storedCounts(), inbound: bot.storedInbound(), hostPeakMiB, adapterPeakMiB };
  } finally {
    await bot.dispose();
  }
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const sortedLatencies = (accounts: readonly AccountTurns[]) => accounts.flatMap((account) => account.latenciesMs).sort((a, b) => a - b);
const milliseconds = (value: number) => `${value.toFixed(0).padStart(6)} ms`;

function latencyRow(label: string, conversations: number, turns: number, wallMs: number, sorted: readonly number[]): string {
  const throughput = `${((turns / wallMs) * 1000).toFixed(0)}`.padStart(8);
  return `  ${label.padEnd(28)}${String(conversations).padStart(13)}${throughput}  ${milliseconds(percentile(sorted, 50))}  ${milliseconds(percentile(sorted, 99))}  ${milliseconds(sorted.at(-1) ?? Number.NaN)}`;
}

/** The rows of one run: each account (when there are several), then the run overall. */
function printRun(run: AccountsRun, overallLabel: string, messagesPerConversation: number): number[] {
  const { perAccount, wallMs } = run.turns;
  if (perAccount.length > 1) {
    perAccount.forEach((account, index) => {
      const sorted = [...account.latenciesMs].sort((a, b) => a - b);
      console.log(latencyRow(`  account ${run.selfIds[index]}`, account.conversations, account.latenciesMs.length, account.wallMs, sorted));
    });
  }
  const sorted = sortedLatencies(perAccount);
  console.log(latencyRow(overallLabel, run.plan.length, run.plan.length * messagesPerConversation, wallMs, sorted));
  return sorted;
}

/** Prints a run's delivery and account checks; true when all hold. */
function checkRun(run: AccountsRun, label: string, total: number): boolean {
  const { turns, stored, inbound, plan, selfIds } = run;
  const answeredTwice = [...turns.answersPerMessage.values()].filter((count) => count > 1).length;
  // Each conversation is its own stream, belonging to the account its messages were sent to.
  const streamsPerConversation = new Map<number, Set<string>>();
  const conversationsPerStream = new Map<string, Set<number>>();
  let inOtherAccount = 0;
  for (const row of inbound) {
    const named = parseConversationText(row.content);
    if (named === undefined) continue;
    if (row.account !== selfIds[plan[named.conversation]!.account]) inOtherAccount += 1;
    streamsPerConversation.set(named.conversation, (streamsPerConversation.get(named.conversation) ?? new Set()).add(row.streamId));
    conversationsPerStream.set(row.streamId, (conversationsPerStream.get(row.streamId) ?? new Set()).add(named.conversation));
  }
  const sharedStreams = [...conversationsPerStream.values()].filter((owners) => owners.size > 1).length;
  const splitConversations = [...streamsPerConversation.values()].filter((streams) => streams.size > 1).length;
  console.log(`  ${label}:`);
  console.log(`    stored inbound ${stored.inbound} of ${total} (stored twice: ${stored.inboundTwice}); outbound ${stored.outbound}`);
  console.log(`    answered ${turns.answersPerMessage.size} of ${total} messages; answered more than once: ${answeredTwice}; answers quoting nothing sent: ${turns.strayAnswers}`);
  console.log(`    answers on another account's connection: ${turns.wrongPeer}; on the right one but to another user: ${turns.wrongUser}`);
  console.log(
    `    streams: ${conversationsPerStream.size} for ${plan.length} conversations (holding two conversations: ${sharedStreams}, a conversation split over two: ${splitConversations}); messages stored in another account's stream: ${inOtherAccount}`,
  );
  if (turns.stalled !== undefined) console.log(`    STALLED: ${turns.stalled}`);
  return (
    turns.stalled === undefined &&
    stored.inbound === total &&
    stored.inboundTwice === 0 &&
    turns.answersPerMessage.size === total &&
    answeredTwice === 0 &&
    turns.strayAnswers === 0 &&
    turns.wrongPeer === 0 &&
    turns.wrongUser === 0 &&
    conversationsPerStream.size === plan.length &&
    sharedStreams === 0 &&
    splitConversations === 0 &&
    inOtherAccount === 0
  );
}

/**
 * Prints throughput and reply latency (p50, p99, max) per account and overall, against the
 * one-account baseline of the same run, peak memory, and the delivery checks; true when both
 * runs stored every message once, answered it exactly once, and every answer came back on
 * its own account's connection.
 */
export async function benchAccountsLoad(options: AccountsLoadOptions = DEFAULT_ACCOUNTS_LOAD): Promise<boolean> {
  const total = options.conversations * options.messagesPerConversation;
  console.error(`accounts-load: one account carrying ${options.conversations} conversations (${total} turns) ...`);
  const single = await throughTheBot(options, 1, 'one account');
  console.error(`accounts-load: ${options.accounts} accounts ...`);
  const several = await throughTheBot(options, options.accounts, `${options.accounts} accounts`);
  const sharedUsers = new Set(several.plan.filter((conversation) => conversation.sharedUser).map((conversation) => conversation.userId)).size;

  console.log(
    `\nAccounts load: ${options.conversations} private conversations x ${options.messagesPerConversation} messages (${total} turns) through OneBot v11 on loopback, instant demo model;` +
      ` ${options.accounts} accounts (peers with their own X-Self-ID, connected at once), ${sharedUsers} users talking to two accounts at once`,
  );
  console.log(`  ${''.padEnd(28)}${'conversations'.padStart(13)}${'turns/s'.padStart(8)}  ${'p50'.padStart(9)}  ${'p99'.padStart(9)}  ${'max'.padStart(9)}`);
  const singleSorted = printRun(single, 'one account (baseline)', options.messagesPerConversation);
  const severalSorted = printRun(several, `${options.accounts} accounts, overall`, options.messagesPerConversation);
  const ratio = (mine: number, base: number) => `${(mine / base).toFixed(2)}x`;
  console.log(
    `  ratio to the baseline (overall)  p50 ${ratio(percentile(severalSorted, 50), percentile(singleSorted, 50))}, p99 ${ratio(percentile(severalSorted, 99), percentile(singleSorted, 99))},` +
      ` throughput ${ratio(single.turns.wallMs, several.turns.wallMs)}`,
  );
  const memory = (run: AccountsRun) => `host ${run.hostPeakMiB?.toFixed(0) ?? '?'} MiB, adapter ${run.adapterPeakMiB?.toFixed(0) ?? '?'} MiB`;
  console.log(`  peak memory (VmHWM)  one account: ${memory(single)}; ${options.accounts} accounts: ${memory(several)}`);
  const singleMet = checkRun(single, 'one account', total);
  const severalMet = checkRun(several, `${options.accounts} accounts`, total);
  judgeCondition(
    'accounts load: every message stored once and answered exactly once, on the connection of its account, each conversation its own stream',
    singleMet && severalMet,
    `one account ${singleMet ? 'held' : 'failed'}, ${options.accounts} accounts ${severalMet ? 'held' : 'failed'}`,
  );
  return singleMet && severalMet;
}

// `node … bench/accounts-load.bench.ts [conversations] [messages] [accounts]` runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [conversations, messagesPerConversation, accounts] = process.argv.slice(2).map(Number);
  const met = await benchAccountsLoad({
    ...DEFAULT_ACCOUNTS_LOAD,
    conversations: conversations || DEFAULT_ACCOUNTS_LOAD.conversations,
    messagesPerConversation: messagesPerConversation || DEFAULT_ACCOUNTS_LOAD.messagesPerConversation,
    accounts: accounts || DEFAULT_ACCOUNTS_LOAD.accounts,
  });
  process.exitCode = met ? 0 : 1;
}
