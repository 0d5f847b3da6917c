// "Is it now?" for intermittent half-hours: the N cheapest (or highest) half-hours of today and of
// tomorrow (Europe/London local days, chosen per day as cheapest_slots(…, per := 'day') does),
// grouped into blocks of contiguous half-hours (selection_blocks): whether now, moved by an
// offset, lies in a block, that block and the next, as the peers' intermittent target rates.
import type { Warehouse } from '../store/Warehouse.js';
import { cheapestSlots, slotsCall, type CheapestSlotsRequest, type SlotRow } from './cheapestSlots.js';
import { blockCheck, checkedDays, type BlockCheck } from './checkWindow.js';

export type CheckSlotsRequest = Omit<CheapestSlotsRequest, 'perDay' | 'from' | 'to'> & {
  now: Date;
  /** Act this many minutes after each block starts (negative: before); default 0. */
  offsetMinutes?: number;
};

export interface CheckSlotsResult extends BlockCheck {
  /** The instant checked, UTC `...Z`. */
  now: string;
  /** The Europe/London day checked: that of now − offset. */
  local_date: string;
  /** Today's chosen half-hours, in time order (none when fewer than count qualify). */
  today: SlotRow[];
}

export async function checkSlots(warehouse: Warehouse, request: CheckSlotsRequest): Promise<CheckSlotsResult> {
  const { now, offsetMinutes = 0, ...rest } = request;
  const { today, from, to } = checkedDays(now, offsetMinutes);
  const slotsRequest = { ...rest, perDay: true, from, to };
  const rows = await cheapestSlots(warehouse, slotsRequest);
  const { call, params } = await slotsCall(warehouse, slotsRequest);
  const selection = `(SELECT list({payment_method: c.payment_method, rate_type: c.rate_type, slot_start: c.start,
      value_inc_vat: c.value_inc_vat, value_exc_vat: c.value_exc_vat}) FROM ${call} AS c)`;
  const todays = rows.filter((r) => r.local_date === today);
  const blocks = await blockCheck(warehouse, { selection, params, at: now, offsetMinutes, rounded: request.rounded }, todays[0] ?? rows[0]);
  return {
    now: now.toISOString().replace('.000Z', 'Z'),
    local_date: today,
    ...blocks,
    today: todays,
  };
}
