// `--meter MPAN:SERIAL` (or MPRN:SERIAL): the meter point and the serial of one meter on it.
import { UsageError } from '../errors.js';

export interface MeterRef {
  meterPoint: string;
  serial?: string;
}

export function parseMeter(text: string, flag = '--meter', serialRequired = false): MeterRef {
  const [point = '', serial, ...rest] = text.trim().split(':');
  if (!/^[0-9A-Za-z_-]{4,20}$/.test(point) || rest.length > 0 || (serial !== undefined && !/^[0-9A-Za-z_-]{1,40}$/.test(serial))) {
    throw new UsageError(`${flag}: '${text}' is not MPAN:SERIAL (e.g. 1200012345678:21L1234567; gas: MPRN:SERIAL)`);
  }
  if (serialRequired && serial === undefined) throw new UsageError(`${flag}: '${text}' needs the meter's serial: MPAN:SERIAL`);
  return serial === undefined ? { meterPoint: point } : { meterPoint: point, serial };
}
