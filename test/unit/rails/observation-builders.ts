/**
 * Observation builders for the rail tests: every DOMAIN §8 kind with plausible defaults on the
 * pinned day, so a case states only the fields it is about.
 */
import type {
  CertifiedPayroll,
  CostIndex,
  EmissionsReport,
  EnvironmentalInspection,
  EquipmentLog,
  HoursWorked,
  Incident,
  MaterialDelivery,
  MilestoneObservation,
  Observation,
  ObservationBase,
  OshaCitation,
  ThermalScan,
  WeatherForecast,
} from '../../../src/projects/facts.js';
import { GC, PRJ, RECORDED, TODAY } from './fixtures.js';

type Fields<O extends Observation> = Partial<Omit<O, 'kind'>>;

function base(id: string): ObservationBase {
  return { ...RECORDED, id, project_id: PRJ, entity_id: GC, observed_on: TODAY };
}

export const obs = {
  payroll: (id: string, f: Fields<CertifiedPayroll> = {}): CertifiedPayroll => ({
    ...base(id),
    kind: 'certified_payroll',
    period_from: '2026-06-01',
    period_to: '2026-06-07',
    headcount: 20,
    prevailing_wage_ok: true,
    ...f,
  }),
  milestone: (id: string, f: Fields<MilestoneObservation> = {}): MilestoneObservation => ({
    ...base(id),
    kind: 'milestone',
    name: 'Topping out',
    completed_on: TODAY,
    ...f,
  }),
  citation: (id: string, f: Fields<OshaCitation> = {}): OshaCitation => ({
    ...base(id),
    kind: 'osha_citation',
    activity_nr: `A-${id}`,
    type: 'O',
    penalty: 100_000,
    abate_by: '2026-07-15',
    abated_on: null,
    ...f,
  }),
  incident: (id: string, f: Fields<Incident> = {}): Incident => ({
    ...base(id),
    kind: 'incident',
    recordable: true,
    lost_time: false,
    ...f,
  }),
  hours: (id: string, hours: number, f: Fields<HoursWorked> = {}): HoursWorked => ({
    ...base(id),
    kind: 'hours_worked',
    hours,
    ...f,
  }),
  emissions: (
    id: string,
    tco2e: number,
    budget_tco2e: number,
    f: Fields<EmissionsReport> = {},
  ): EmissionsReport => ({
    ...base(id),
    kind: 'emissions_report',
    tco2e,
    budget_tco2e,
    ...f,
  }),
  envInspection: (id: string, f: Fields<EnvironmentalInspection> = {}): EnvironmentalInspection => ({
    ...base(id),
    kind: 'environmental_inspection',
    passed: true,
    violations: 0,
    ...f,
  }),
  delivery: (id: string, f: Fields<MaterialDelivery> = {}): MaterialDelivery => ({
    ...base(id),
    kind: 'material_delivery',
    material: 'Steel joists',
    needed_by: '2026-06-10',
    delivered_on: '2026-06-08',
    quantity: 40,
    critical: true,
    line: 1,
    ...f,
  }),
  equipment: (id: string, f: Fields<EquipmentLog> = {}): EquipmentLog => ({
    ...base(id),
    kind: 'equipment_log',
    asset: 'Tower crane TC-1',
    hours: 100,
    utilization_pct: 70,
    last_maintenance_on: '2026-05-01',
    interval_hours: 250,
    ...f,
  }),
  forecast: (id: string, date: string, f: Fields<WeatherForecast> = {}): WeatherForecast => ({
    ...base(id),
    kind: 'weather_forecast',
    date,
    precip_mm: 0,
    wind_kph: 10,
    heat_index_c: 24,
    ...f,
  }),
  thermal: (id: string, f: Fields<ThermalScan> = {}): ThermalScan => ({
    ...base(id),
    kind: 'thermal_scan',
    temp_c: 15,
    concrete_pour: true,
    ...f,
  }),
  costIndex: (id: string, index: number, baseline: number, f: Fields<CostIndex> = {}): CostIndex => ({
    ...base(id),
    kind: 'cost_index',
    material: 'Rebar',
    index,
    baseline,
    ...f,
  }),
};
