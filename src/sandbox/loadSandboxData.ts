// Reads the recorded files under data/sandbox/ into a SandboxCatalog, once per process.
// data/sandbox/README.md lists which file feeds which tariff and every transformation made here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, TariffsError } from '../errors.js';
import { sandboxDataDir } from '../paths.js';
import { RateSeries, type RateColumns, type RateInput } from './RateSeries.js';
import {
  REAL_BASE_URL, REGIONS, SandboxCatalog, meterKey, synthesizeDetail, tariffDetailEntry, type Json,
  addDayNightOneRateProduct,
} from './SandboxCatalog.js';
import { ConsumptionSeries } from './ConsumptionSeries.js';
import { readLondonWallAsApi } from './queryParams.js';
import { SANDBOX_ACCOUNT } from './sandboxCredentials.js';
import { EV_HOUSEHOLD, SANDBOX_EV_ACCOUNT, evAccount } from './sandboxDispatches.js';

const HALF_HOUR = 30 * 60_000;
const VAT = 1.05;

/** Files, relative to data/sandbox/, by the role they play. */
export const SANDBOX_FILES = {
  agileA: 'tom66-OctopusGoCheaper/csv_agile_A_Eastern_England.csv',
  agileA2017: 'barnybug-agilepub/agile.2017.csv',
  agileA2018: 'barnybug-agilepub/agile.2018.csv',
  agileJ: 'wyvernp-agile_predictor/csv_agile_J_South_Eastern_England.csv',
  agileC1: 'domdfcoding-octo-api/tests_responses/agile_unit_rates.json',
  agileC2: 'domdfcoding-octo-api/tests_responses/agile_unit_rates_page2.json',
  var170111Rates: 'domdfcoding-octo-api/tests_responses/standard_unit_rates.json',
  var170111Detail: 'domdfcoding-octo-api/tests_responses/products_VAR-17-01-11.json',
  products2020: 'domdfcoding-octo-api/tests_responses/products_business_false.json',
  products2023: 'msbg-octoprice/sample_products.json',
  agileFlexDetail: 'ryanw-mobile-OctoMeter/apiSampleResponse/products_AGILE-FLEX-22-11-25.json',
  agileFlexJ: 'ryanw-mobile-OctoMeter/extracted_from_kotlin_test_samples/GetStandardUnitRatesSampleData__json.json',
  var221101Detail: 'ryanw-mobile-OctoMeter/extracted_from_kotlin_test_samples/GetProductSampleData__json_var_22_11_01.json',
  var221101Standing: 'ryanw-mobile-OctoMeter/extracted_from_kotlin_test_samples/GetStandingChargesSampleData__var221101Json.json',
  var221101Day: 'ryanw-mobile-OctoMeter/extracted_from_kotlin_test_samples/GetDayUnitRatesSampleData__json.json',
  var221101Night: 'ryanw-mobile-OctoMeter/extracted_from_kotlin_test_samples/GetNightUnitRatesSampleData__json.json',
  agile241001G:
    'peter-d98-pv-bess-technoecon/EXCERPT_agile-half-hour-actual-rates-01-01-2025_31-12-2025_NWEng_2025-03-24T14-00_to_2025-03-31T19-00.csv',
  agile241001H:
    'BottlecapDave-HomeAssistant-TargetTimeframes/agile_rates_2026-03-28T20_2026-03-30T00_DST_test_continuous_times_when_moving_into_bst.json',
  agile241001M: 'madbeardman-ihd-replacement/agile.json',
  agile241001N: 'bluca-nest-octopus/april_4_2026_prices.json',
  agileOutgoingC: 'hramzan01-project_market/csv_agileoutgoing_C_London.csv',
  goD: 'BottlecapDave-HomeAssistant-OctopusEnergy/go_rates_E-1R-GO-22-07-05-D_2022-10-07_2022-10-10_test_rates_to_thirty_minute_increments.json',
  evSynthetic: 'synthetic/four_rate_ev_product.json',
  account: 'markallanson-octopus-energy/account_response.json',
} as const;

/** The synthetic household (data/sandbox/README.md): its meters, agreements and readings' span. */
export const HOUSEHOLD = {
  from: '2023-03-01T00:00:00Z',
  to: '2024-03-01T00:00:00Z',
  importMpan: '2000000000011',
  exportMpan: '2000000000012',
  electricitySerial: '23J0000001',
  gasMprn: '3000000001',
  gasSerial: 'G4P0000001',
  switchAt: '2023-08-31T23:00:00Z',
  importTariffs: ['E-1R-AGILE-18-02-21-J', 'E-1R-VAR-17-01-11-A'],
  exportTariff: 'E-1R-AGILE-OUTGOING-19-05-13-C',
  gasTariff: 'G-1R-VAR-17-01-11-A',
} as const;

let cached: { dir: string; catalog: SandboxCatalog } | undefined;

/** A fresh copy of the recorded catalog (the files are read on the first call only). */
export function loadSandboxData(dir: string = sandboxDataDir()): SandboxCatalog {
  if (!cached || cached.dir !== dir) cached = { dir, catalog: buildCatalog(dir) };
  return cached.catalog.clone();
}

function buildCatalog(dir: string): SandboxCatalog {
  const text = (file: string) => {
    try {
      return readFileSync(join(dir, file), 'utf8');
    } catch (error) {
      throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `sandbox data file missing: ${join(dir, file)}`, { cause: error });
    }
  };
  const json = (file: string) => JSON.parse(text(file)) as Json;
  const results = (file: string) => (json(file).results ?? []) as RateInput[];
  const catalog = new SandboxCatalog();

  // Products: the 2023 list, AGILE-18-02-21 from the 2020 list, VAR-17-01-11 (in no recorded list:
  // withdrawn in 2018) from its detail, and AGILE-24-10-01 (newer than every list) made up.
  const listings = new Map<string, Json>();
  for (const p of json(SANDBOX_FILES.products2023).results as Json[]) listings.set(String(p.code), p);
  for (const p of json(SANDBOX_FILES.products2020).results as Json[]) {
    if (p.code === 'AGILE-18-02-21') listings.set(String(p.code), p);
  }
  listings.set('VAR-17-01-11', listingFromDetail(json(SANDBOX_FILES.var170111Detail)));
  const agileFlex = listings.get('AGILE-FLEX-22-11-25')!;
  listings.set('AGILE-24-10-01', {
    ...agileFlex,
    code: 'AGILE-24-10-01',
    full_name: 'Agile Octopus October 2024 v1',
    available_from: '2024-09-30T23:00:00Z',
    links: [{ href: `${REAL_BASE_URL}products/AGILE-24-10-01/`, method: 'GET', rel: 'self' }],
  });

  const details = new Map<string, Json>([
    ['AGILE-FLEX-22-11-25', json(SANDBOX_FILES.agileFlexDetail)],
    ['VAR-22-11-01', json(SANDBOX_FILES.var221101Detail)],
    ['VAR-17-01-11', json(SANDBOX_FILES.var170111Detail)],
  ]);
  // Products with rates but no recorded detail: a detail listing every region's tariff.
  const agileRegions = (product: string): Json =>
    Object.fromEntries(REGIONS.map((r) => [
      `_${r}`,
      { direct_debit_monthly: tariffDetailEntry(product, `E-1R-${product}-${r}`, 'electricity', '1R') },
    ]));
  const withRegions = new Map<string, Json>();
  // AGILE-OUTGOING-19-05-13: the 2023 list's export product (direction EXPORT kept).
  for (const code of ['AGILE-18-02-21', 'AGILE-24-10-01', 'AGILE-OUTGOING-19-05-13']) {
    withRegions.set(code, synthesizeDetail(listings.get(code)!, { single_register_electricity_tariffs: agileRegions(code) }));
  }
  for (const [code, listing] of [...listings].sort(([a], [b]) => a.localeCompare(b))) {
    const detail = details.get(code) ?? withRegions.get(code);
    catalog.addProduct(listing, detail, !details.has(code));
  }

  // Region A: barnybug's 2017-2018 series up to where tom66's starts, then tom66's (identical on overlap).
  const tom66 = readCsvSeries(text(SANDBOX_FILES.agileA), (line) => {
    const cells = line.split(',');
    return [cells[0]!, cells[4]!];
  });
  const start = tom66.from[0]!;
  const early = concatColumns(
    readCsvSeries(text(SANDBOX_FILES.agileA2017), headerless),
    readCsvSeries(text(SANDBOX_FILES.agileA2018), headerless),
  );
  const earlyRows = early.from.findIndex((ms) => ms >= start);
  catalog.setRates('E-1R-AGILE-18-02-21-A', 'standard-unit-rates',
    RateSeries.fromSortedColumns(concatColumns(sliceColumns(early, 0, earlyRows === -1 ? early.from.length : earlyRows), tom66)));
  catalog.setRates('E-1R-AGILE-18-02-21-J', 'standard-unit-rates',
    RateSeries.fromSortedColumns(readCsvSeries(text(SANDBOX_FILES.agileJ), headerless)));
  catalog.setRates('E-1R-AGILE-18-02-21-C', 'standard-unit-rates',
    RateSeries.fromRecords([...results(SANDBOX_FILES.agileC1), ...results(SANDBOX_FILES.agileC2)]));

  // Agile Outgoing, region C: the same five-column layout as tom66's (UTC start, local HH:MM,
  // region, name, price), with +00:00 instants.
  catalog.setRates(HOUSEHOLD.exportTariff, 'standard-unit-rates',
    RateSeries.fromSortedColumns(readCsvSeries(text(SANDBOX_FILES.agileOutgoingC), (line) => {
      const cells = line.split(',');
      return [cells[0]!, cells[4]!];
    })));

  catalog.setRates('E-1R-VAR-17-01-11-A', 'standard-unit-rates', RateSeries.fromRecords(results(SANDBOX_FILES.var170111Rates)));
  // The sandbox account's gas tariff: no gas rate history was recorded, so the product detail's own
  // direct-debit unit rate for region A, as one open-ended rate from the product's launch.
  const var170111 = json(SANDBOX_FILES.var170111Detail) as Json & {
    available_from: string; single_register_gas_tariffs: { _A: { direct_debit_monthly: Record<string, number> } };
  };
  const gasA = var170111.single_register_gas_tariffs._A.direct_debit_monthly;
  catalog.setRates(HOUSEHOLD.gasTariff, 'standard-unit-rates', RateSeries.fromRecords([{
    value_exc_vat: gasA.standard_unit_rate_exc_vat!, value_inc_vat: gasA.standard_unit_rate_inc_vat!,
    valid_from: var170111.available_from, valid_to: null, payment_method: null,
  }]));
  catalog.setRates('E-1R-VAR-22-11-01-A', 'standing-charges', RateSeries.fromRecords(results(SANDBOX_FILES.var221101Standing)));
  catalog.setRates('E-2R-VAR-22-11-01-A', 'day-unit-rates', RateSeries.fromRecords(results(SANDBOX_FILES.var221101Day)));
  catalog.setRates('E-2R-VAR-22-11-01-A', 'night-unit-rates', RateSeries.fromRecords(results(SANDBOX_FILES.var221101Night)));
  catalog.setRates('E-1R-AGILE-FLEX-22-11-25-J', 'standard-unit-rates', RateSeries.fromRecords(results(SANDBOX_FILES.agileFlexJ)));

  catalog.setRates('E-1R-AGILE-24-10-01-G', 'standard-unit-rates',
    RateSeries.fromRecords(readLocalTimeCsv(text(SANDBOX_FILES.agile241001G))));
  catalog.setRates('E-1R-AGILE-24-10-01-H', 'standard-unit-rates', RateSeries.fromRecords(results(SANDBOX_FILES.agile241001H)));
  catalog.setRates('E-1R-AGILE-24-10-01-M', 'standard-unit-rates', RateSeries.fromRecords(results(SANDBOX_FILES.agile241001M)));
  catalog.setRates('E-1R-AGILE-24-10-01-N', 'standard-unit-rates', RateSeries.fromRecords(results(SANDBOX_FILES.agile241001N)));

  // Octopus Go, region D: seven real rates (two a day) from a peer's test, under the tariff it names.
  catalog.addTariff({ tariffCode: 'E-1R-GO-22-07-05-D', rates: results(SANDBOX_FILES.goD) });
  addSyntheticEvProduct(catalog, json(SANDBOX_FILES.evSynthetic));
  addDayNightOneRateProduct(catalog);

  catalog.accounts.set(SANDBOX_ACCOUNT, sandboxAccount(json(SANDBOX_FILES.account)));
  const from = Date.parse(HOUSEHOLD.from);
  const to = Date.parse(HOUSEHOLD.to);
  catalog.consumption.set(meterKey('electricity', HOUSEHOLD.importMpan, HOUSEHOLD.electricitySerial), new ConsumptionSeries('import', from, to));
  catalog.consumption.set(meterKey('electricity', HOUSEHOLD.exportMpan, HOUSEHOLD.electricitySerial), new ConsumptionSeries('export', from, to));
  catalog.consumption.set(meterKey('gas', HOUSEHOLD.gasMprn, HOUSEHOLD.gasSerial), new ConsumptionSeries('gas', from, to));
  // the Intelligent Octopus Go household: its own account, served dispatches over GraphQL
  catalog.accounts.set(SANDBOX_EV_ACCOUNT, evAccount());
  catalog.consumption.set(meterKey('electricity', EV_HOUSEHOLD.mpan, EV_HOUSEHOLD.serial),
    new ConsumptionSeries('import', Date.parse(EV_HOUSEHOLD.readingsFrom), Date.parse(EV_HOUSEHOLD.readingsTo)));
  return catalog;
}

/**
 * The synthetic four-rate EV product (data/sandbox/synthetic/): listed, with a detail holding its
 * one tariff under four_rate_ev_electricity_tariffs (night band and rates), and its day and night
 * unit rates.
 */
function addSyntheticEvProduct(catalog: SandboxCatalog, spec: Json): void {
  const listing = spec.listing as Json;
  const code = String(listing.code);
  const tariff = spec.tariff as Json;
  const tariffCode = String(tariff.code);
  const links = tariffDetailEntry(code, tariffCode, 'electricity', '2R').links;
  const detail = synthesizeDetail(
    { ...listing, links: [{ href: `${REAL_BASE_URL}products/${code}/`, method: 'GET', rel: 'self' }] },
    { four_rate_ev_electricity_tariffs: { [`_${String(spec.region)}`]: { direct_debit_monthly: { ...tariff, links } } } },
  );
  catalog.addProduct({ ...listing, links: [{ href: `${REAL_BASE_URL}products/${code}/`, method: 'GET', rel: 'self' }] }, detail, false);
  catalog.setRates(tariffCode, 'day-unit-rates', RateSeries.fromRecords(spec.day_unit_rates as RateInput[]));
  catalog.setRates(tariffCode, 'night-unit-rates', RateSeries.fromRecords(spec.night_unit_rates as RateInput[]));
}

/** A products-list element from a detail: the detail's scalar fields in list order, direction IMPORT. */
function listingFromDetail(detail: Json): Json {
  const keys = ['code', 'direction', 'full_name', 'display_name', 'description', 'is_variable', 'is_green', 'is_tracker',
    'is_prepay', 'is_business', 'is_restricted', 'term', 'available_from', 'available_to', 'links', 'brand'];
  return Object.fromEntries(keys.map((k) => [k, k === 'direction' ? 'IMPORT' : detail[k]]));
}

/** `2018-02-19T00:00:00Z` or `2020-01-01 00:00:00+00:00` (UTC only) → ms. */
function parseUtc(text: string, line: number): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(Z|\+00:00)$/.exec(text);
  if (!m) throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `line ${line}: '${text}' is not a UTC timestamp`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

const headerless = (line: string): [string, string] | undefined => {
  if (line.startsWith('timestamp')) return undefined;
  const comma = line.indexOf(',');
  return [line.slice(0, comma), line.slice(comma + 1)];
};

/**
 * A half-hourly CSV of slot start (UTC) and price inc VAT, oldest first: valid_to = start + 30 min,
 * value_exc_vat = inc / 1.05 rounded to 4 dp (the CSVs carry no exc-VAT price).
 */
function readCsvSeries(text: string, cells: (line: string) => [string, string] | undefined): RateColumns {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const from: number[] = [];
  const inc: number[] = [];
  lines.forEach((line, i) => {
    const pair = cells(line);
    if (!pair) return;
    const price = Number(pair[1]);
    if (!Number.isFinite(price)) throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `line ${i + 1}: price '${pair[1]}'`);
    from.push(parseUtc(pair[0], i + 1));
    inc.push(price);
  });
  const cols: RateColumns = {
    from: Float64Array.from(from),
    to: Float64Array.from(from, (ms) => ms + HALF_HOUR),
    exc: Float64Array.from(inc, excVat),
    inc: Float64Array.from(inc),
  };
  return cols;
}

/** octopushome.net export: `Period from,Period to,Import,Export` in UK local time (dd/mm/yyyy HH:MM). */
function readLocalTimeCsv(text: string): RateInput[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(1);
  const local = (s: string) => {
    const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(s.trim());
    if (!m) throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `'${s}' is not dd/mm/yyyy HH:MM`);
    return readLondonWallAsApi(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4]), Number(m[5])));
  };
  return lines.map((line) => {
    const [fromText, toText, importText] = line.split(',');
    const inc = Number(importText);
    return { valid_from: local(fromText!), valid_to: local(toText!), value_inc_vat: inc, value_exc_vat: excVat(inc), payment_method: null };
  });
}

function excVat(inc: number): number {
  return Math.round((inc / VAT) * 10_000) / 10_000;
}

function sliceColumns(c: RateColumns, start: number, end: number): RateColumns {
  return { from: c.from.slice(start, end), to: c.to.slice(start, end), exc: c.exc.slice(start, end), inc: c.inc.slice(start, end) };
}

function concatColumns(a: RateColumns, b: RateColumns): RateColumns {
  const join2 = (x: Float64Array, y: Float64Array) => {
    const out = new Float64Array(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  return { from: join2(a.from, b.from), to: join2(a.to, b.to), exc: join2(a.exc, b.exc), inc: join2(a.inc, b.inc) };
}

/**
 * markallanson's anonymised account, re-pointed at sandbox tariffs: the import meter point moves
 * from Agile (region A, 2019) to Flexible (VAR-17-01-11, open-ended); the export meter point is
 * dropped; gas keeps only its open-ended VAR-17-01-11 agreement; a second property has a
 * dual-register (Economy 7 style) meter on E-2R-VAR-22-11-01-A.
 */
function sandboxAccount(recorded: Json): Json {
  const account = structuredClone(recorded) as {
    number: string;
    properties: (Json & { electricity_meter_points: Json[]; gas_meter_points: Json[] })[];
  };
  account.number = SANDBOX_ACCOUNT;
  const property = account.properties[0]!;
  const importPoint = property.electricity_meter_points.find((p) => p.is_export === false)!;
  importPoint.agreements = [
    { tariff_code: 'E-1R-AGILE-18-02-21-A', valid_from: '2019-01-01T00:00:00Z', valid_to: '2020-01-01T00:00:00Z' },
    { tariff_code: 'E-1R-VAR-17-01-11-A', valid_from: '2020-01-01T00:00:00Z', valid_to: null },
  ];
  property.electricity_meter_points = [importPoint];
  const gas = property.gas_meter_points[0]!;
  gas.agreements = [{ tariff_code: 'G-1R-VAR-17-01-11-A', valid_from: '2018-02-16T00:00:00Z', valid_to: null }];
  const economy7 = structuredClone(property);
  Object.assign(economy7, {
    id: Number(property.id) + 1,
    moved_in_at: '2024-01-01T00:00:00Z',
    moved_out_at: null,
    electricity_meter_points: [{
      ...structuredClone(importPoint),
      mpan: '9999999999998',
      meters: [{
        serial_number: 'E7E7E7E7E7',
        registers: [
          { identifier: '01', is_settlement_register: true, rate: 'DAY' },
          { identifier: '02', is_settlement_register: true, rate: 'NIGHT' },
        ],
      }],
      agreements: [{ tariff_code: 'E-2R-VAR-22-11-01-A', valid_from: '2024-01-01T00:00:00Z', valid_to: null }],
    }],
    gas_meter_points: [],
  });
  account.properties.push(economy7);
  account.properties.push(householdProperty(property) as typeof property);
  return account;
}

/** The synthetic household's property: an import meter (Agile J, then Flexible from 2023-09-01),
 *  an export meter on Agile Outgoing C, and a gas meter reporting m³. */
function householdProperty(template: Json): Json {
  const meter = (serial: string) => [{ serial_number: serial, registers: [{ identifier: '01', is_settlement_register: true, rate: 'STANDARD' }] }];
  return {
    ...structuredClone(template),
    id: Number(template.id) + 2,
    moved_in_at: HOUSEHOLD.from,
    moved_out_at: null,
    electricity_meter_points: [
      {
        mpan: HOUSEHOLD.importMpan, profile_class: 1, consumption_standard: 2900, is_export: false,
        meters: meter(HOUSEHOLD.electricitySerial),
        agreements: [
          { tariff_code: HOUSEHOLD.importTariffs[0], valid_from: HOUSEHOLD.from, valid_to: HOUSEHOLD.switchAt },
          { tariff_code: HOUSEHOLD.importTariffs[1], valid_from: HOUSEHOLD.switchAt, valid_to: null },
        ],
      },
      {
        mpan: HOUSEHOLD.exportMpan, profile_class: 1, consumption_standard: 0, is_export: true,
        meters: meter(HOUSEHOLD.electricitySerial),
        agreements: [{ tariff_code: HOUSEHOLD.exportTariff, valid_from: HOUSEHOLD.from, valid_to: null }],
      },
    ],
    gas_meter_points: [{
      mprn: HOUSEHOLD.gasMprn, consumption_standard: 9000,
      meters: [{ serial_number: HOUSEHOLD.gasSerial }],
      agreements: [{ tariff_code: HOUSEHOLD.gasTariff, valid_from: HOUSEHOLD.from, valid_to: null }],
    }],
  };
}
