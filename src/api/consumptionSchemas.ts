// Records of the consumption endpoints and the meter fields of an account (not in the documented
// spec: shapes from recorded responses, see test/fixtures/PROVENANCE.md). Instants carry the
// local offset (`+01:00` in summer; older responses `+0100`).
import { z } from 'zod';
import { parseInstant } from '../time/parseInstant.js';

const instant = z.string().refine((s) => parseInstant(s) !== undefined, 'an ISO 8601 date-time with an offset');

export const consumptionSchema = z.looseObject({
  consumption: z.number().min(0),
  interval_start: instant,
  interval_end: instant,
});
export type ConsumptionRecord = z.infer<typeof consumptionSchema>;

const agreement = z.looseObject({ tariff_code: z.string().min(1), valid_from: z.string(), valid_to: z.string().nullable() });
const meters = z.array(z.looseObject({ serial_number: z.string().min(1) })).default([]);

export const accountMetersSchema = z.looseObject({
  number: z.string().min(1),
  properties: z.array(z.looseObject({
    electricity_meter_points: z.array(z.looseObject({
      mpan: z.string().min(1), is_export: z.boolean().default(false), meters, agreements: z.array(agreement).default([]),
    })).default([]),
    gas_meter_points: z.array(z.looseObject({
      mprn: z.string().min(1), meters, agreements: z.array(agreement).default([]),
    })).default([]),
  })),
});
export type AccountMeters = z.infer<typeof accountMetersSchema>;
