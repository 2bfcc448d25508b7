import { expect } from 'chai';
import type { Milestone } from '../../../src/projects/facts.js';
import {
  SCHEDULE_PACE_LAG_POINTS,
  SCHEDULE_RAIL,
  SCHEDULE_SLIPPAGE_DAYS,
} from '../../../src/rails/schedule.js';
import { draw, drawLine, facts, GC, NOW, obs, project, railTable } from './builders.js';

/** 60-day project, 30 days in on 2026-06-15: exactly 50 % of the time elapsed. */
const short = (over: Parameters<typeof project>[0] = {}) =>
  project({ start_date: '2026-05-16', completion_date: '2026-07-15', ...over });
const milestone = (due_on: string, completed_on: string | null): Milestone => ({
  name: 'Topping out',
  due_on,
  completed_on,
});

describe('SCHEDULE rail (DOMAIN §8)', () => {
  it('uses the documented thresholds', () => {
    expect([SCHEDULE_SLIPPAGE_DAYS, SCHEDULE_PACE_LAG_POINTS]).to.deep.equal([30, 15]);
  });

  railTable(SCHEDULE_RAIL, [
    {
      given: 'work on pace and a milestone reached 19 days late',
      facts: facts({
        projects: [short({ milestones: [milestone('2026-05-01', '2026-05-20')] })],
        draws: [draw('DRW-1', 45)],
      }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'a milestone reached 30 days late (just under)',
      facts: facts({
        projects: [short({ milestones: [milestone('2026-05-01', '2026-05-31')] })],
        draws: [draw('DRW-1', 45)],
      }),
      codes: [],
    },
    {
      given: 'a milestone reached 31 days late (just over)',
      facts: facts({
        projects: [short({ milestones: [milestone('2026-05-01', '2026-06-01')] })],
        draws: [draw('DRW-1', 45)],
        observations: [obs.milestone('OBS-m1', { completed_on: '2026-06-01' })],
      }),
      codes: ['SCHEDULE_SLIPPAGE'],
      posture: 'NOMINAL',
    },
    {
      given: 'an open milestone due 30 days ago',
      facts: facts({
        projects: [short({ milestones: [milestone('2026-05-16', null)] })],
        draws: [draw('DRW-1', 45)],
      }),
      codes: [],
    },
    {
      given: 'an open milestone due 31 days ago',
      facts: facts({
        projects: [short({ milestones: [milestone('2026-05-15', null)] })],
        draws: [draw('DRW-1', 45)],
      }),
      codes: ['SCHEDULE_SLIPPAGE'],
    },
    {
      given: '50 % of the time elapsed and 35 % of the work claimed (lag exactly 15 points)',
      facts: facts({ projects: [short()], draws: [draw('DRW-1', 35)] }),
      codes: [],
    },
    {
      given: '83 of 500 days elapsed (16.6 %) and 1.6 % of the work claimed (lag exactly 15 points)',
      // 16.6 − 1.6 is 15.000000000000002 in binary.
      facts: facts({
        projects: [project({ start_date: '2026-03-24', completion_date: '2027-08-06' })],
        draws: [draw('DRW-1', 1.6)],
      }),
      codes: [],
    },
    {
      given: '50 % of the time elapsed and 34.9 % of the work claimed (lag 15.1 points)',
      facts: facts({ projects: [short()], draws: [draw('DRW-1', 34.9)] }),
      codes: ['SCHEDULE_PACE_LAG'],
    },
    {
      given: 'a rejected later draw claiming more (only the latest non-rejected draw counts)',
      facts: facts({
        projects: [short()],
        draws: [draw('DRW-1', 30), draw('DRW-2', 60, { application_no: 2, status: 'REJECTED' })],
      }),
      codes: ['SCHEDULE_PACE_LAG'],
    },
    {
      given: 'a project due to complete today at 90 %',
      facts: facts({ projects: [short({ completion_date: '2026-06-15' })], draws: [draw('DRW-1', 90)] }),
      codes: [],
    },
    {
      given: 'a project due yesterday at 90 %',
      facts: facts({ projects: [short({ completion_date: '2026-06-14' })], draws: [draw('DRW-1', 90)] }),
      codes: ['SCHEDULE_OVERDUE'],
      posture: 'CRITICAL',
      severities: ['CRITICAL'],
    },
    {
      given: 'a project due yesterday whose work is 100 % complete',
      facts: facts({ projects: [short({ completion_date: '2026-06-14' })], draws: [draw('DRW-1', 100)] }),
      codes: [],
    },
    {
      given: 'a project due yesterday whose $10.6 trillion sheet is billed in full (G × 100 past 2^53)',
      facts: facts({
        projects: [short({ completion_date: '2026-06-14' })],
        draws: [draw('DRW-1', 100, { lines: [drawLine(1, 1_064_151_112_208_898, 1_064_151_112_208_898)] })],
      }),
      codes: [],
    },
  ]);

  it('attributes schedule findings to the GC and cites the milestone observation', () => {
    const f = facts({
      projects: [short({ milestones: [milestone('2026-05-01', '2026-06-01')] })],
      draws: [draw('DRW-1', 45)],
      observations: [obs.milestone('OBS-m1', { completed_on: '2026-06-01' })],
    });
    const [slip] = SCHEDULE_RAIL.evaluate(f, NOW).findings;
    expect(slip?.entity_id).to.equal(GC);
    expect(slip?.observed_on).to.equal('2026-06-01');
    expect(slip?.evidence.map((e) => e.id)).to.include('OBS-m1');
  });
});
