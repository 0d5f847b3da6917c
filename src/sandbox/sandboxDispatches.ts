// The sandbox's Intelligent Octopus Go household (issue 28): a second account whose one import
// meter is on the synthetic four-rate EV tariff (night band 23:30-05:30 Europe/London), with one
// smart device (an EV) and its dispatches. SYNTHETIC, not recorded: the spans are made up to
// exercise the billing rules around the 2024 clock changes (a dispatch touching a half-hour makes
// it off-peak, the 6-hour daily cap, dispatches crossing the night band's edges).
// Completed dispatches are served once they have ended (by the sandbox's clock); planned ones are
// made from the clock (the next hours), so a pinned clock gives a fixed answer.
import { HALF_HOUR_MS } from '../time/index.js';
import type { Json } from './SandboxCatalog.js';

export const SANDBOX_EV_ACCOUNT = 'A-E5C0D1A7';
export const SANDBOX_EV_DEVICE = '7c1a5d9e-0000-4e00-8000-00000000e001';

export const EV_HOUSEHOLD = {
  tariff: 'E-2R-EV-SANDBOX-24-01-01-L',
  agreementFrom: '2024-01-01T00:00:00Z',
  mpan: '2000000000031',
  serial: '24E0000001',
  /** Readings served for the meter: [from, to). */
  readingsFrom: '2024-03-01T00:00:00Z',
  readingsTo: '2024-12-01T00:00:00Z',
} as const;

export interface SandboxDispatch {
  start: string;
  end: string;
  /** kWh, as the platform writes decimals: a string */
  delta: string;
}

/**
 * Completed dispatches (UTC). Spring forward 2024-03-31 (01:00Z: GMT → BST) and fall back
 * 2024-10-27 (01:00Z: BST → GMT); the night band is 23:30Z-04:30Z on 30/31 March and
 * 22:30Z(26th)-05:30Z on 26/27 October. Per local day, dispatched half-hours (inside the band
 * or not) are counted in time order: 2024-03-31 and 2024-10-27 reach 13, 2024-10-26 reaches 14.
 */
export const COMPLETED_DISPATCHES: readonly SandboxDispatch[] = [
  { start: '2024-03-30T13:10:00Z', end: '2024-03-30T14:40:00Z', delta: '-5.10' },
  { start: '2024-03-30T22:00:00Z', end: '2024-03-31T00:15:00Z', delta: '-7.40' },
  { start: '2024-03-31T04:00:00Z', end: '2024-03-31T07:05:00Z', delta: '-10.25' },
  { start: '2024-03-31T10:00:00Z', end: '2024-03-31T12:30:00Z', delta: '-8.00' },
  { start: '2024-10-26T07:00:00Z', end: '2024-10-26T14:00:00Z', delta: '-24.50' },
  { start: '2024-10-26T23:40:00Z', end: '2024-10-27T01:20:00Z', delta: '-5.80' },
  { start: '2024-10-27T05:15:00Z', end: '2024-10-27T06:10:00Z', delta: '-3.20' },
  { start: '2024-10-27T16:00:00Z', end: '2024-10-27T19:00:00Z', delta: '-10.50' },
];

/** Completed dispatches ending within this long before the clock are "late" under the fault. */
export const LATE_WINDOW_MS = 24 * 3600_000;

export interface PlannedDispatchJson {
  start: string;
  end: string;
  type: string;
  energyAddedKwh: string;
}

/** The plan at `nowMs`: from the next half-hour boundary plus one hour, three slots (the last a
 *  boost). `vanish`: the first slot gone and the second moved half an hour later. */
export function plannedDispatchesAt(nowMs: number, vanish: boolean): PlannedDispatchJson[] {
  const base = Math.ceil(nowMs / HALF_HOUR_MS) * HALF_HOUR_MS + 2 * HALF_HOUR_MS;
  const slot = (from: number, to: number, type: string, kwh: string) => ({
    start: kraken(base + from * HALF_HOUR_MS), end: kraken(base + to * HALF_HOUR_MS), type, energyAddedKwh: kwh,
  });
  const plan = [slot(0, 2, 'SMART', '7.00'), slot(6, 9, 'SMART', '10.50'), slot(12, 13, 'BOOST', '3.50')];
  if (!vanish) return plan;
  const moved = slot(7, 10, 'SMART', '10.50');
  return [moved, plan[2]!];
}

/** Completed dispatches the platform would list at `nowMs`: ended by then; `late` holds back the
 *  ones that ended in the last day (they arrive later). */
export function completedDispatchesAt(nowMs: number, late: boolean): Json[] {
  return COMPLETED_DISPATCHES
    .filter((d) => Date.parse(d.end) <= nowMs && !(late && Date.parse(d.end) > nowMs - LATE_WINDOW_MS))
    .map((d) => ({ start: kraken(Date.parse(d.start)), end: kraken(Date.parse(d.end)), delta: d.delta, meta: { source: null, location: 'AT_HOME' } }));
}

/** The EV account as GET /v1/accounts/{number}/ serves it. */
export function evAccount(): Json {
  return {
    number: SANDBOX_EV_ACCOUNT,
    properties: [{
      id: 9_000_001,
      moved_in_at: EV_HOUSEHOLD.agreementFrom,
      moved_out_at: null,
      address_line_1: '1 Sandbox Lane',
      address_line_2: '',
      address_line_3: '',
      town: 'London',
      county: '',
      postcode: 'SW1A 0AA',
      electricity_meter_points: [{
        mpan: EV_HOUSEHOLD.mpan, profile_class: 1, consumption_standard: 4500, is_export: false,
        meters: [{ serial_number: EV_HOUSEHOLD.serial, registers: [{ identifier: '01', is_settlement_register: true, rate: 'STANDARD' }] }],
        agreements: [{ tariff_code: EV_HOUSEHOLD.tariff, valid_from: EV_HOUSEHOLD.agreementFrom, valid_to: null }],
      }],
      gas_meter_points: [],
    }],
  };
}

/** `2024-03-30T13:10:00+00:00`, the way Kraken writes instants. */
function kraken(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
