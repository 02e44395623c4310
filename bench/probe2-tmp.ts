import { readFileSync } from 'node:fs';
import { startTarget } from './support/peers/targets.js';
import { childPids } from './support/process-memory.js';
const t = await startTarget(process.env.T as any, { moonglassProject: '/work/main/.bench-temp/peers/moonglass', koishiFolder: '/work/main/.bench-temp/peers/koishi' } as any);
for (let i = 0; i < Number(process.env.MSGS ?? 40); i++) {
  t.peer.pushPrivateMessage({ userId: 20001, message: `hello ${i}` });
  await t.peer.waitForAction('send_private_msg', i + 1);
}
await new Promise((r) => setTimeout(r, 1000));
for (const pid of [t.rootPid, ...childPids(t.rootPid)]) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').filter((l) => /VmHWM|Rss/.test(l));
  console.log(pid, status.join(' ').replace(/\s+/g, ' '));
  try { process.kill(pid, 'SIGUSR2'); } catch {}
}
await new Promise((r) => setTimeout(r, 500));
if (process.env.SMAPS) { const { execSync } = await import('node:child_process'); for (const pid of [t.rootPid, ...childPids(t.rootPid)]) console.log(execSync(`python3 /tmp/i20/smaps.py ${pid}; python3 /tmp/i20/anon.py ${pid} 2>&1 || true`).toString()); }
if (process.env.SNAP) { process.kill(t.rootPid, 'SIGUSR1'); await new Promise((r) => setTimeout(r, 8000)); }
await t.stop(); await t.dispose();
