/**
 * Self time of a `--cpu-prof` profile, by function and by file, over the last `--seconds` of its
 * samples (the measured window of `bench/cpu.ts --profile`, which ends at the server's exit).
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [--seconds 8] [--top 40]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '8' }, top: { type: 'string', default: '40' } },
});
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

// Sample times (µs since start); keep those in the last `seconds` before the end.
const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));
const from = profile.endTime - Number(values.seconds) * 1e6;

const self = new Map<number, number>();
let total = 0;
for (let i = 0; i < profile.samples.length; i += 1) {
  if (times[i]! < from) continue;
  const next = i + 1 < times.length ? times[i + 1]! : profile.endTime;
  const dt = Math.max(0, next - times[i]!);
  const id = profile.samples[i]!;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
}

const short = (url: string): string =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\//, 'nm:')
    .replace(/^.*\/(src|bench)\//, '$1/');
const fnKey = (n: Node): string =>
  `${n.callFrame.functionName || '(anon)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  byFn.set(fnKey(n), (byFn.get(fnKey(n)) ?? 0) + us);
  const file = short(n.callFrame.url) || `(${n.callFrame.functionName})`;
  byFile.set(file, (byFile.get(file) ?? 0) + us);
}
const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)');
const idleUs = idle.reduce((a, [, us]) => a + us, 0);
const busy = total - idleUs;
const top = Number(values.top);
const print = (title: string, m: Map<string, number>): void => {
  process.stdout.write(
    `\n${title} (% of busy ${(busy / 1e6).toFixed(2)} s, idle ${(idleUs / 1e6).toFixed(2)} s)\n`,
  );
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    if (!k.startsWith('(idle)'))
      process.stdout.write(`${((100 * us) / busy).toFixed(1).padStart(5)}  ${k}\n`);
};
print('self time by function', byFn);
print('self time by file', byFile);

// Total (inclusive) time: each function counted once per sample, whatever its depth.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const k = fnKey(byId.get(at)!);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
}
print('total time by function', inclusive);
