/**
 * The finding lifecycle (DOMAIN §2 "a finding stays open until resolved by a later fact … or by an
 * explicit resolution"): decideScan records what opened and resolved, the `governance` projection
 * keeps each finding's record.
 */
import { expect } from 'chai';
import { scanProject } from '../../../src/governance/scan.js';
import { openFindingsOf } from '../../../projections/governance.js';
import { cleanWorld, on, without, GC, ORG, PROJECT_ID } from '../../support/governance-fixtures.js';
import { GovernanceLedger, PAYLOAD_HASH } from '../../support/governance-ledger.js';

/** The clean project without its title date-down: one BLOCKING TITLE_DATE_DOWN on DRW-2. */
function missingDateDown() {
  const world = cleanWorld();
  without(world.w, 'TTL-2');
  const ledger = new GovernanceLedger();
  const scan = (n: number, day: string) =>
    ledger.scan(scanProject(world.w.input(), on(day)), { scan_id: `SCN-${n}`, now: on(day) });
  return { ...world, ledger, scan };
}

describe('finding lifecycle (decideScan + governance projection)', () => {
  it('opens what a first scan finds and records the scan as an artifact', () => {
    // given no earlier scan, when the project is scanned
    const { ledger, scan } = missingDateDown();
    const event = scan(1, '2026-04-15');
    // then
    const data = event.data as { findings: { id: string }[]; opened: string[]; resolved: string[] };
    const id = data.findings[0]!.id;
    expect(event.type).to.equal('ProjectScanned');
    expect(event.stream).to.equal(`project-${PROJECT_ID}`);
    expect(event.data).to.deep.include({
      scan_id: 'SCN-1',
      project_id: PROJECT_ID,
      scan_verdict: 'BLOCKED',
      opened: [id],
      resolved: [],
      scanned_on: '2026-04-15',
      payload_hash: PAYLOAD_HASH,
      artifacts: [{ kind: 'scan', hash: PAYLOAD_HASH }],
    });
    expect(ledger.state.findings[id]).to.deep.include({
      status: 'OPEN',
      org_id: ORG,
      // Opened on the date the condition arose — application 2 was recorded on 2026-01-01 with no
      // date-down after it — not on the day of the scan (issue 14).
      opened_on: '2026-01-01',
      detected_on: '2026-04-15',
      opened_seq: 1,
      resolved_by: null,
      last_scan_id: 'SCN-1',
      // A missing date-down is the lender's title work: attributed to no entity, indexed by none.
      entity_id: null,
    });
    expect(ledger.state.findings_by_project[PROJECT_ID]).to.deep.equal([id]);
    expect(ledger.state.findings_by_entity[GC]).to.equal(undefined);
    expect(ledger.state.latest_scan_by_project[PROJECT_ID]).to.equal('SCN-1');
  });

  it('keeps a finding open with its first opening while re-scans still find it', () => {
    const { ledger, scan } = missingDateDown();
    scan(1, '2026-04-15');
    const event = scan(2, '2026-04-16');
    expect(event.data).to.deep.include({ opened: [], resolved: [] });
    const [record] = openFindingsOf(ledger.state, PROJECT_ID);
    expect(record).to.deep.include({ opened_on: '2026-01-01', opened_seq: 1, last_scan_id: 'SCN-2' });
  });

  it('resolves by re-scan once a later fact removes the condition', () => {
    // given an open TITLE_DATE_DOWN, when a date-down arrives and the project is re-scanned
    const { w, ledger, scan } = missingDateDown();
    const id = (scan(1, '2026-04-15').data as { opened: string[] }).opened[0]!;
    w.titleDateDown({ id: 'TTL-3', effective_on: '2026-04-16' });
    const event = scan(2, '2026-04-17');
    // then
    expect(event.data).to.deep.include({ scan_verdict: 'CLEAN', opened: [], resolved: [id] });
    expect(ledger.state.findings[id]).to.deep.include({
      status: 'RESOLVED',
      resolved_on: '2026-04-17',
      resolved_seq: 2,
      resolved_by: 'rescan',
    });
    expect(openFindingsOf(ledger.state, PROJECT_ID)).to.deep.equal([]);
  });

  it('re-opens a finding resolved by re-scan as a new occurrence when it comes back', () => {
    const { w, ledger, scan } = missingDateDown();
    const id = (scan(1, '2026-04-15').data as { opened: string[] }).opened[0]!;
    w.titleDateDown({ id: 'TTL-3', effective_on: '2026-04-16' });
    scan(2, '2026-04-17');
    without(w, 'TTL-3');
    const event = scan(3, '2026-04-18');
    expect(event.data).to.deep.include({ opened: [id], resolved: [] });
    expect(ledger.state.findings[id]).to.deep.include({
      status: 'OPEN',
      // Not before its previous occurrence was resolved (2026-04-17), whatever its evidence says.
      opened_on: '2026-04-17',
      opened_seq: 3,
      resolved_on: null,
      resolved_by: null,
    });
    expect(ledger.state.findings_by_project[PROJECT_ID]).to.deep.equal([id]);
  });

  it('resolves by explicit resolution, and a re-scan never re-opens it', () => {
    // given an open finding, when the org resolves it
    const { ledger, scan } = missingDateDown();
    const id = (scan(1, '2026-04-15').data as { opened: string[] }).opened[0]!;
    ledger.resolveFinding(id, '2026-04-16');
    expect(ledger.state.findings[id]).to.deep.include({
      status: 'RESOLVED',
      resolved_on: '2026-04-16',
      resolved_seq: 2,
      resolved_by: 'resolution',
    });
    // then a scan that (without the resolution in its input) still finds it neither opens nor resolves it
    const event = scan(2, '2026-04-17');
    expect(event.data).to.deep.include({ opened: [], resolved: [] });
    expect(ledger.state.findings[id]).to.deep.include({ status: 'RESOLVED', resolved_by: 'resolution' });
  });

  it("ignores another org's resolution of the finding", () => {
    const { ledger, scan } = missingDateDown();
    const id = (scan(1, '2026-04-15').data as { opened: string[] }).opened[0]!;
    ledger.resolveFinding(id, '2026-04-16', 'org_other');
    expect(ledger.state.findings[id]!.status).to.equal('OPEN');
  });

  it('takes the latest severity of an open finding without re-opening it', () => {
    const { w, inspection2 } = cleanWorld();
    const ledger = new GovernanceLedger();
    inspection2.lines[0]!.percent_complete = 34;
    const first = ledger.scan(scanProject(w.input(), on('2026-04-15')), {
      scan_id: 'SCN-1',
      now: on('2026-04-15'),
    });
    inspection2.lines[0]!.percent_complete = 20;
    const second = ledger.scan(scanProject(w.input(), on('2026-04-16')), {
      scan_id: 'SCN-2',
      now: on('2026-04-16'),
    });
    const id = (first.data as { opened: string[] }).opened[0]!;
    expect(second.data).to.deep.include({ opened: [], resolved: [] });
    expect(ledger.state.findings[id]).to.deep.include({
      severity: 'BLOCKING',
      opened_seq: 1,
      status: 'OPEN',
    });
  });

  it('records the scan under the event id it is given', () => {
    const { w } = missingDateDown();
    const ledger = new GovernanceLedger();
    const eventId = '018f0000-0000-7000-8000-000000000001';
    const event = ledger.scan(scanProject(w.input(), on('2026-04-15')), {
      scan_id: 'SCN-1',
      now: on('2026-04-15'),
      event_id: eventId,
    });
    expect(event.id).to.equal(eventId);
  });
});
