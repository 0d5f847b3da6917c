// The blocks of a selection of half-hours (today's and tomorrow's chosen windows or intermittent
// half-hours) and where an instant stands among them, moved by an offset: the selection_blocks
// macro of sql/public run over a selection given as SQL, with bound parameters.
import type { DuckDBValue } from '@duckdb/node-api';
import type { Warehouse } from '../store/Warehouse.js';
import { selectPrices } from './priceSql.js';

export type BlockState = 'past' | 'current' | 'next' | 'later';

export interface BlockRow {
  payment_method: string | null;
  rate_type: string;
  /** The block's half-hours: UTC `...Z`, then Europe/London wall time with offset. */
  start: string;
  end: string;
  local_start: string;
  local_end: string;
  /** start and end moved by the offset: when to act (UTC). */
  act_start: string;
  act_end: string;
  slots: number;
  state: BlockState;
  mean_inc_vat: number;
  min_inc_vat: number;
  max_inc_vat: number;
  mean_exc_vat: number;
}

/** The whole selection of a series: how many half-hours, their mean, min and max inc VAT. */
export interface SelectionSummary {
  slots: number;
  mean_inc_vat: number;
  min_inc_vat: number;
  max_inc_vat: number;
}

export interface SelectionBlocksRequest {
  /**
   * SQL of the selection list: a scalar subquery giving list({payment_method, rate_type,
   * slot_start, value_inc_vat, value_exc_vat}) (see sql/public/selection_blocks.sql).
   */
  selection: string;
  /** Its bound parameters; `at` and `offset_minutes` are added. */
  params: Record<string, DuckDBValue>;
  at: Date;
  /** Minutes the blocks are moved by to act on them (-60: an hour before each). */
  offsetMinutes: number;
  rounded?: boolean;
}

/** Blocks of every series in time order, with each series' selection summary. */
export async function selectionBlocks(
  warehouse: Warehouse, request: SelectionBlocksRequest,
): Promise<{ blocks: BlockRow[]; summaries: Map<string, SelectionSummary> }> {
  const columns = selectPrices(['mean_inc_vat', 'min_inc_vat', 'max_inc_vat', 'mean_exc_vat', 'selected_mean_inc_vat',
    'selected_min_inc_vat', 'selected_max_inc_vat'], request.rounded);
  const rows = await warehouse.all<BlockRow & {
    selected_slots: number; selected_mean_inc_vat: number; selected_min_inc_vat: number; selected_max_inc_vat: number;
  }>(`SELECT ${columns} FROM selection_blocks(${request.selection}, CAST($at AS TIMESTAMPTZ), offset_minutes := CAST($offset_minutes AS INTEGER))`,
  { ...request.params, at: request.at.toISOString(), offset_minutes: request.offsetMinutes });
  const summaries = new Map<string, SelectionSummary>();
  const blocks = rows.map(({ selected_slots, selected_mean_inc_vat, selected_min_inc_vat, selected_max_inc_vat, ...block }) => {
    summaries.set(blockSeries(block), {
      slots: selected_slots, mean_inc_vat: selected_mean_inc_vat, min_inc_vat: selected_min_inc_vat, max_inc_vat: selected_max_inc_vat,
    });
    return block;
  });
  return { blocks, summaries };
}

export function blockSeries(row: { payment_method: string | null; rate_type: string }): string {
  return `${row.payment_method ?? ''}|${row.rate_type}`;
}
