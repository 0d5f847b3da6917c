// Tariff codes: `E-1R-AGILE-24-10-01-C` = fuel E(lectricity)/G(as), register 1R/2R, product
// code, region letter.
import { UsageError } from '../errors.js';

export interface TariffCodeParts {
  tariffCode: string;
  fuel: 'electricity' | 'gas';
  register: 'single' | 'dual';
  productCode: string;
  region: string;
}

const TARIFF_CODE = /^([EG])-(1R|2R)-([A-Z0-9][A-Z0-9-]*[A-Z0-9])-([A-P])$/;

export function parseTariffCode(code: string, flag = '--tariff'): TariffCodeParts {
  const m = TARIFF_CODE.exec(code);
  if (!m) {
    throw new UsageError(`${flag}: '${code}' is not a tariff code (expected e.g. E-1R-AGILE-24-10-01-C: fuel-register-product-region)`);
  }
  return {
    tariffCode: code,
    fuel: m[1] === 'E' ? 'electricity' : 'gas',
    register: m[2] === '1R' ? 'single' : 'dual',
    productCode: m[3]!,
    region: m[4]!,
  };
}
