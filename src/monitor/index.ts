/** The transparency-log monitor behind `npm run ledger:monitor` (scripts/ledger-monitor.ts). */
export {
  checkLog,
  MonitorStateError,
  readMonitorState,
  writeMonitorState,
  type MonitorOptions,
  type MonitorOutcome,
  type MonitorState,
} from './monitor.js';
