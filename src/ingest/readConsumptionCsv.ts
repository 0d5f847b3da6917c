// Parses a consumption CSV: the supplier dashboard's export (`Consumption (kwh), Estimated Cost
// Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End`, or the older `Consumption (kWh), Start,
// End`) or a plain `interval_start,kwh`. Every row is checked; the first bad one is an error
// naming its line and column, so that nothing of a bad file is stored.
import { ERROR_CODES, TariffsError } from '../errors.js';
import { HALF_HOUR_MS } from '../time/index.js';
import { parseInstant } from '../time/parseInstant.js';

export interface CsvReading {
  line: number;
  startMs: number;
  endMs: number;
  value: number;
  supplierCostIncVat: number | null;
  supplierStandingChargeIncVat: number | null;
}

export type CsvLayout = 'supplier' | 'supplier-legacy' | 'plain';

export class ConsumptionCsvError extends TariffsError {
  override readonly name = 'ConsumptionCsvError';
  constructor(readonly source: string, readonly line: number, readonly column: string | undefined, detail: string) {
    super(ERROR_CODES.CONSUMPTION_CSV, `${source}: line ${line}${column ? `, column '${column}'` : ''}: ${detail}`);
  }
}

interface Columns {
  layout: CsvLayout;
  value: number;
  start: number;
  end?: number;
  cost?: number;
  standing?: number;
  names: string[];
}

const norm = (cell: string): string => cell.trim().replace(/^\uFEFF/, '').toLowerCase().replace(/\s+/g, ' ');

function columnsOf(header: string[], source: string): Columns {
  const names = header.map((h) => h.trim().replace(/^\uFEFF/, ''));
  const cells = header.map(norm);
  const find = (...alternatives: string[]) => {
    const i = cells.findIndex((c) => alternatives.includes(c));
    return i === -1 ? undefined : i;
  };
  const value = find('consumption (kwh)', 'consumption (m3)', 'consumption (m³)', 'kwh', 'consumption');
  const start = find('start', 'interval_start');
  if (value === undefined || start === undefined) {
    throw new ConsumptionCsvError(source, 1, undefined,
      `header '${names.join(',')}' is not a consumption CSV: expected 'Consumption (kwh), Estimated Cost Inc. Tax (p), ` +
      `Standing Charge Inc. Tax (p), Start, End', 'Consumption (kWh), Start, End' or 'interval_start,kwh'`);
  }
  const cost = find('estimated cost inc. tax (p)');
  const standing = find('standing charge inc. tax (p)');
  const end = find('end', 'interval_end');
  const layout: CsvLayout = cells[start] === 'interval_start' ? 'plain' : cost !== undefined ? 'supplier' : 'supplier-legacy';
  return { layout, value, start, names, ...(end === undefined ? {} : { end }), ...(cost === undefined ? {} : { cost }), ...(standing === undefined ? {} : { standing }) };
}

/** One CSV line's cells (RFC 4180 quotes, no line breaks inside a cell). */
export function splitCsvLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { out.push(cell); cell = ''; } else cell += ch;
  }
  out.push(cell);
  return out;
}

export function readConsumptionCsv(text: string, source: string): { layout: CsvLayout; readings: CsvReading[] } {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  if (lines.length === 0 || lines[0]!.trim() === '') throw new ConsumptionCsvError(source, 1, undefined, 'empty file (expected a header line)');
  const columns = columnsOf(splitCsvLine(lines[0]!), source);
  const width = columns.names.length;
  const readings: CsvReading[] = [];
  const seen = new Map<number, number>();
  for (let i = 1; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const cells = splitCsvLine(raw);
    if (cells.length !== width) {
      throw new ConsumptionCsvError(source, lineNo, undefined, `${cells.length} fields, the header has ${width}`);
    }
    const name = (index: number) => columns.names[index]!;
    const number = (index: number, optional: boolean): number | null => {
      const cell = cells[index]!.trim();
      if (cell === '' && optional) return null;
      const value = Number(cell);
      if (cell === '' || !Number.isFinite(value)) throw new ConsumptionCsvError(source, lineNo, name(index), `'${cell}' is not a number`);
      return value;
    };
    const instant = (index: number): number => {
      const cell = cells[index]!.trim();
      const ms = parseInstant(cell);
      if (ms === undefined) {
        throw new ConsumptionCsvError(source, lineNo, name(index), `'${cell}' is not an ISO 8601 date-time with an offset (e.g. 2024-03-31T02:00:00+01:00)`);
      }
      return ms;
    };
    const value = number(columns.value, false)!;
    if (value < 0) throw new ConsumptionCsvError(source, lineNo, name(columns.value), `'${cells[columns.value]!.trim()}' is negative`);
    const startMs = instant(columns.start);
    if (startMs % HALF_HOUR_MS !== 0) {
      throw new ConsumptionCsvError(source, lineNo, name(columns.start), `'${cells[columns.start]!.trim()}' does not start a half-hour`);
    }
    let endMs = startMs + HALF_HOUR_MS;
    if (columns.end !== undefined) {
      endMs = instant(columns.end);
      if (endMs - startMs !== HALF_HOUR_MS) {
        throw new ConsumptionCsvError(source, lineNo, name(columns.end), `'${cells[columns.end]!.trim()}' is not 30 minutes after Start`);
      }
    }
    const earlier = seen.get(startMs);
    if (earlier !== undefined) {
      throw new ConsumptionCsvError(source, lineNo, name(columns.start), `the half-hour '${cells[columns.start]!.trim()}' is already on line ${earlier}`);
    }
    seen.set(startMs, lineNo);
    readings.push({
      line: lineNo, startMs, endMs, value,
      supplierCostIncVat: columns.cost === undefined ? null : number(columns.cost, true),
      supplierStandingChargeIncVat: columns.standing === undefined ? null : number(columns.standing, true),
    });
  }
  return { layout: columns.layout, readings };
}
