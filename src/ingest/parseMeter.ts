// `--meter MPAN:SERIAL` (or MPRN:SERIAL): the meter point and the serial of one meter on it.
import { UsageError } from '../errors.js';

export interface MeterRef {
  meterPoint: string;
  serial?: string;
}

export function parseMeter(text: string, flag = '--meter', serialRequired = false): MeterRef {
  const [point = '', serial, ...rest] = text.trim().split(':');
  if (!/^[0-9A-Za-z_-]{4,20}$/.test(point) || rest.length > 0 || (serial !== undefined && !/^[0-9A-Za-z_-]{1,40}$/.test(serial))) {
    // the serial is optional where a meter point alone will do: the message says so
    const forms = serialRequired ? 'MPAN:SERIAL (e.g. 1200012345678:21L1234567; gas: MPRN:SERIAL)'
      : 'MPAN or MPAN:SERIAL (e.g. 1200012345678 or 1200012345678:21L1234567; gas: MPRN[:SERIAL])';
    throw new UsageError(`${flag}: '${text}' is not ${forms}: a meter point is 4 to 20 letters or digits, a serial up to 40`);
  }
  if (serialRequired && serial === undefined) throw new UsageError(`${flag}: '${text}' needs the meter's serial: MPAN:SERIAL`);
  return serial === undefined ? { meterPoint: point } : { meterPoint: point, serial };
}
