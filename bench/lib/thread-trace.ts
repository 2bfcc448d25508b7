/**
 * What held the service's thread during a load (`npm run bench -- --only read --trace`): the
 * service child (bench/servers.ts, BENCH_TRACE=<file>) appends one line per read-model flush and
 * one per gap of its event loop, and the parent summarizes the lines of the load's window.
 *
 * Lines: `flush <epoch ms> <ms>` (a `ReadModelFile.flush`, timed around the call), `gc <epoch ms>
 * <ms> <kind>` (a V8 collection of GC_MS or more, from `perf_hooks`: `major`, `minor`, `incremental`
 * or `weakcb`) and `gap <epoch ms> <ms>` (a 5 ms interval timer that ran more than GAP_MS after its
 * last turn: the loop was busy — a flush, a GC pause, a burst of requests answered in one turn).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { quantile } from './stats.js';

/** A loop turn longer than this is logged as a gap. */
export const GAP_MS = 25;
/** How often the gap timer asks to run. */
const TICK_MS = 5;
/** A collection shorter than this is not logged (a young-generation scavenge is ~1 ms). */
export const GC_MS = 10;

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

export interface ThreadTrace {
  flushes: number;
  flush_median_ms: number;
  flush_p90_ms: number;
  flush_max_ms: number;
  /** Loop turns longer than GAP_MS, and how many of them began a flush or a long collection. */
  gaps: number;
  gaps_with_a_flush: number;
  gaps_with_a_gc: number;
  /** Collections of GC_MS or more, and their total. */
  long_gcs: number;
  long_gc_ms: number;
  longest_gaps_ms: number[];
}

interface Entry {
  kind: 'flush' | 'gap' | 'gc';
  at: number;
  ms: number;
}

/**
 * In the service child: starts logging loop gaps into `file`; returns what logs a flush (its start,
 * `performance.now()`, and its duration).
 */
export function traceThread(file: string): (at: number, ms: number) => void {
  const write = (kind: Entry['kind'], at: number, ms: number, detail = '') =>
    appendFileSync(file, `${kind} ${(performance.timeOrigin + at).toFixed(1)} ${ms.toFixed(2)}${detail}\n`);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      if (entry.duration >= GC_MS)
        write('gc', entry.startTime, entry.duration, ` ${GC_KINDS[entry.detail?.kind ?? -1] ?? 'other'}`);
    }
  }).observe({ entryTypes: ['gc'] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > GAP_MS) write('gap', last, now - last);
    last = now;
  }, TICK_MS).unref();
  return (at, ms) => write('flush', at, ms);
}

/** The trace's entries that began in [from, to] (epoch ms), summarized. */
export function summarizeTrace(text: string, from: number, to: number): ThreadTrace {
  const entries: Entry[] = [];
  for (const line of text.split('\n')) {
    const [kind, at, ms] = line.split(' ');
    if ((kind !== 'flush' && kind !== 'gap' && kind !== 'gc') || at === undefined || ms === undefined)
      continue;
    const entry: Entry = { kind, at: Number(at), ms: Number(ms) };
    if (entry.at >= from && entry.at <= to) entries.push(entry);
  }
  const flushes = entries.filter((e) => e.kind === 'flush');
  const gaps = entries.filter((e) => e.kind === 'gap');
  const gcs = entries.filter((e) => e.kind === 'gc');
  const within = (g: Entry, others: Entry[]) => others.some((o) => o.at >= g.at && o.at <= g.at + g.ms);
  const durations = flushes.map((f) => f.ms).sort((a, b) => a - b);
  return {
    flushes: flushes.length,
    flush_median_ms: round(quantile(durations, 0.5)),
    flush_p90_ms: round(quantile(durations, 0.9)),
    flush_max_ms: round(quantile(durations, 1)),
    gaps: gaps.length,
    gaps_with_a_flush: gaps.filter((g) => within(g, flushes)).length,
    gaps_with_a_gc: gaps.filter((g) => within(g, gcs)).length,
    long_gcs: gcs.length,
    long_gc_ms: round(gcs.reduce((sum, g) => sum + g.ms, 0)),
    longest_gaps_ms: gaps
      .map((g) => g.ms)
      .sort((a, b) => b - a)
      .slice(0, 5)
      .map(round),
  };
}

/** `summarizeTrace` of a trace file (none written: nothing held the thread that long). */
export function readTrace(file: string, from: number, to: number): ThreadTrace {
  return summarizeTrace(existsSync(file) ? readFileSync(file, 'utf8') : '', from, to);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
