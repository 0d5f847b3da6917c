// Tariff codes of the benchmark sandbox: one per region, all copies of the real J series.
export const REGIONS_FOR_BENCH = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P'];
export const BENCH_PRODUCT = 'AGILE-BENCH-24-01-01';
export const benchTariffCode = (region: string): string => `E-1R-${BENCH_PRODUCT}-${region}`;
export const BENCH_FROM = '2020-01-01T00:00:00Z';
