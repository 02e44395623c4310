import 'reflect-metadata';
import { benchEventBus } from './event-bus.bench.js';
import { benchGetService } from './get-service.bench.js';
import { benchPluginLoad } from './plugin-load.bench.js';
import { benchChatTurn } from './chat-turn.bench.js';
import { benchNdfcTurn, benchNdfcTurnAgainstBaseline } from './ndfc-turn.bench.js';
import { benchIdleMemory } from './idle-memory.bench.js';
import { benchStartup } from './startup.bench.js';
import { benchInstalledStartup } from './installed-startup.bench.js';
import { benchLoad } from './load.bench.js';
import { benchAccountsLoad } from './accounts-load.bench.js';
import { benchCommands } from './commands.bench.js';
import { benchSoak, soakOptionsFromEnvironment } from './soak.bench.js';
import { type GoalVerdict, judgedGoals, machineLoad } from './support/goal.js';

/** One bench's outcome: the goals it judged through ./support/goal.ts, and what it returned. */
interface BenchOutcome {
  name: string;
  met: boolean;
  verdicts: readonly GoalVerdict[];
  error?: unknown;
}

const benches: [string, () => boolean | Promise<boolean>][] = [
  ['event bus', benchEventBus],
  ['getService', benchGetService],
  ['chat turn', benchChatTurn],
  ['NDFC turn', benchNdfcTurn],
  ['NDFC turn against its baseline build', benchNdfcTurnAgainstBaseline],
  ['idle memory', benchIdleMemory],
  ['plugin load', benchPluginLoad],
  ['start-up', benchStartup],
  ['installed start-up', benchInstalledStartup],
  ['load', benchLoad],
  ['accounts load', benchAccountsLoad],
  ['commands', benchCommands],
];
// The soak takes 10 minutes (MOONGLASS_SOAK_SECONDS shortens it): only with MOONGLASS_SOAK=1, or alone as `npm run bench:soak`.
if (process.env['MOONGLASS_SOAK'] === '1') benches.push(['soak', () => benchSoak(soakOptionsFromEnvironment())]);

console.log(`moonglass benchmarks on Node ${process.version}, ${process.platform}/${process.arch}, ${machineLoad()} at the start`);
const outcomes: BenchOutcome[] = [];
for (const [name, run] of benches) {
  const before = judgedGoals().length;
  try {
    const met = await run();
    outcomes.push({ name, met, verdicts: judgedGoals().slice(before) });
  } catch (error) {
    // One bench failing must not hide the others' results; it counts as a miss.
    console.log(`\n${name}: the bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    outcomes.push({ name, met: false, verdicts: judgedGoals().slice(before), error });
  }
}

// The summary: every goal, so that a miss cannot scroll away. A bench that prints its own goal
// lines (not through ./support/goal.ts) shows as one line with what it returned.
const lines: { status: string; text: string; label: string }[] = [];
for (const outcome of outcomes) {
  for (const verdict of outcome.verdicts) lines.push({ status: verdict.status, text: verdict.detail, label: verdict.label });
  if (outcome.error !== undefined) lines.push({ status: 'FAILED', text: `${outcome.name}: the bench threw (see above)`, label: `${outcome.name} (threw)` });
  else if (outcome.verdicts.length === 0) lines.push({ status: outcome.met ? 'MET' : 'MISSED', text: `${outcome.name}: its own goal lines (above)`, label: outcome.name });
  else if (!outcome.met && outcome.verdicts.every((verdict) => verdict.status !== 'MISSED')) {
    lines.push({ status: 'MISSED', text: `${outcome.name}: a goal printed above, besides these`, label: outcome.name });
  }
}
console.log(`\nGoals (each judged on the median of its rounds; ${machineLoad()} now):`);
for (const line of lines) console.log(`  ${line.status.padEnd(7)} ${line.text}`);
const missed = lines.filter((line) => line.status === 'MISSED' || line.status === 'FAILED');
const judged = lines.filter((line) => line.status !== 'SKIPPED');
console.log(
  missed.length === 0
    ? `\nall ${judged.length} goals met`
    : `\n${missed.length} of ${judged.length} goals MISSED: ${missed.map((line) => line.label).join('; ')}`,
);
if (outcomes.some((outcome) => outcome.error !== undefined)) process.exitCode = 1;
