// Shapes of the GraphQL answers about Intelligent Octopus Go dispatches. Only start and end are
// relied on; every other field is undocumented here and so optional (null or absent is fine).
import { z } from 'zod';

const graphqlErrorSchema = z.looseObject({
  message: z.string().optional(),
  path: z.array(z.unknown()).optional(),
  extensions: z.looseObject({ errorCode: z.string().optional(), errorType: z.string().optional() }).nullable().optional(),
});

/** `{ data, errors }`: data may be null, or partial beside errors. */
export function graphqlAnswerSchema<T extends z.ZodType>(data: T) {
  return z.looseObject({
    data: data.nullable().optional(),
    errors: z.array(graphqlErrorSchema).optional(),
  });
}

const optionalText = z.string().nullable().optional();
/** Kraken sends decimals as numbers or as strings ("1.25"). */
const optionalKwh = z.union([z.number(), z.string()]).nullable().optional();

export const deviceSchema = z.looseObject({
  id: z.string().min(1),
  deviceType: optionalText,
  provider: optionalText,
  __typename: optionalText,
});

export const plannedDispatchSchema = z.looseObject({
  start: z.string().min(1),
  end: z.string().min(1),
  type: optionalText,
  energyAddedKwh: optionalKwh,
});

export const completedDispatchSchema = z.looseObject({
  start: z.string().min(1),
  end: z.string().min(1),
  delta: optionalKwh,
  meta: z.looseObject({ source: optionalText, location: optionalText }).nullable().optional(),
});

export const devicesDataSchema = z.looseObject({ devices: z.array(deviceSchema).nullable() });
export const plannedDataSchema = z.looseObject({ flexPlannedDispatches: z.array(plannedDispatchSchema).nullable() });
export const completedDataSchema = z.looseObject({ completedDispatches: z.array(completedDispatchSchema).nullable() });

export type DeviceJson = z.infer<typeof deviceSchema>;
export type PlannedDispatchJson = z.infer<typeof plannedDispatchSchema>;
export type CompletedDispatchJson = z.infer<typeof completedDispatchSchema>;
