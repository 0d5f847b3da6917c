// Real Agile prices read straight from the recorded CSVs in data/sandbox/ (copies of public
// recordings, see data/sandbox/PROVENANCE.md), not through the sandbox server or the warehouse, for
// brute-force checks of the analytics SQL.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PricePoint {
  /** UTC start of the half-hour, epoch ms. */
  ms: number;
  /** Price inc VAT, p/kWh, exactly as recorded. */
  inc: number;
}

const REAL = fileURLToPath(new URL('../../data/sandbox/', import.meta.url));

function lines(file: string): string[] {
  return readFileSync(`${REAL}${file}`, 'utf8').split(/\r?\n/).filter((line) => line.trim() !== '');
}

/** `timestamp,price` files with `2020-01-01 00:00:00+00:00` instants (wyvernp, barnybug). */
function timestampCsv(file: string): PricePoint[] {
  return lines(file).slice(1).map((line) => {
    const [timestamp = '', price = ''] = line.split(',');
    return { ms: Date.parse(timestamp.replace(' ', 'T')), inc: Number(price) };
  });
}

/** Region J (South Eastern England), 2020-01-01 → 2024-05-14. */
export function regionJPrices(): PricePoint[] {
  return timestampCsv('wyvernp-agile_predictor/csv_agile_J_South_Eastern_England.csv');
}

/**
 * Region A (Eastern England): tom66's series (no header: UTC start, local HH:MM, region, name,
 * price inc VAT) from 2018-02-19, preceded by barnybug's rows before its first slot (the two
 * agree wherever both exist), 2017-01-01 00:30Z on.
 */
export function regionAPrices(): PricePoint[] {
  const tom66 = lines('tom66-OctopusGoCheaper/csv_agile_A_Eastern_England.csv').map((line) => {
    const [start = '', , , , price = ''] = line.split(',');
    return { ms: Date.parse(start), inc: Number(price) };
  });
  const first = tom66[0]!.ms;
  const earlier = [...timestampCsv('barnybug-agilepub/agile.2017.csv'), ...timestampCsv('barnybug-agilepub/agile.2018.csv')]
    .filter((p) => p.ms < first);
  return [...earlier, ...tom66];
}

/** Agile Outgoing (export), region C: UTC start, local HH:MM, region, name, price; 2023-03-01 → 2024-02-29. */
export function outgoingCPrices(): PricePoint[] {
  return lines('hramzan01-project_market/csv_agileoutgoing_C_London.csv').map((line) => {
    const [start = '', , , , price = ''] = line.split(',');
    return { ms: Date.parse(start.replace(' ', 'T')), inc: Number(price) };
  });
}
