// zod schemas of the documented resources. Documented fields are checked; fields the spec does not
// list are tolerated and kept (looseObject), because the interface grows.
import { z } from 'zod';

const datetime = z.iso.datetime({ offset: true });

export const linkSchema = z.looseObject({
  href: z.string(),
  method: z.string(),
  rel: z.string(),
});

/** The envelope of every list response; records are validated one by one (to name the index). */
export const pageEnvelopeSchema = z.looseObject({
  count: z.number().int().min(0),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(z.unknown()),
});

export const productSchema = z.looseObject({
  code: z.string().min(1),
  direction: z.string(),
  full_name: z.string(),
  display_name: z.string(),
  description: z.string(),
  is_variable: z.boolean(),
  is_green: z.boolean(),
  is_tracker: z.boolean(),
  is_prepay: z.boolean(),
  is_business: z.boolean(),
  is_restricted: z.boolean(),
  term: z.number().int().nullable(),
  available_from: datetime,
  available_to: datetime.nullable(),
  links: z.array(linkSchema),
  brand: z.string(),
});
export type Product = z.infer<typeof productSchema>;

/** Standard, day and night unit rates share one shape. */
export const unitRateSchema = z.looseObject({
  value_exc_vat: z.number(),
  value_inc_vat: z.number(),
  valid_from: datetime,
  valid_to: datetime.nullable(),
  // Older responses omit it; current ones send null or DIRECT_DEBIT / NON_DIRECT_DEBIT.
  payment_method: z.string().nullable().optional(),
});
export type UnitRate = z.infer<typeof unitRateSchema>;

/** What paginate needs of a record schema: zod's safeParse. */
export interface RecordSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

export const standingChargeSchema = unitRateSchema;

export const tariffEntrySchema = z.looseObject({
  code: z.string().min(1),
  links: z.array(linkSchema),
});
export type TariffEntry = z.infer<typeof tariffEntrySchema>;

/** `_A` … `_P` → payment method key (`direct_debit_monthly`, `varying`, …) → tariff. */
const tariffTableSchema = z.record(z.string(), z.record(z.string(), tariffEntrySchema));
export type TariffTable = z.infer<typeof tariffTableSchema>;

export const productDetailSchema = z.looseObject({
  code: z.string().min(1),
  full_name: z.string().optional(),
  display_name: z.string().optional(),
  description: z.string().optional(),
  is_variable: z.boolean().optional(),
  is_green: z.boolean().optional(),
  is_tracker: z.boolean().optional(),
  is_prepay: z.boolean().optional(),
  is_business: z.boolean().optional(),
  is_restricted: z.boolean().optional(),
  term: z.number().int().nullable().optional(),
  available_from: datetime.optional(),
  available_to: datetime.nullable().optional(),
  tariffs_active_at: datetime.optional(),
  single_register_electricity_tariffs: tariffTableSchema.optional(),
  dual_register_electricity_tariffs: tariffTableSchema.optional(),
  /** EV time-of-use tariffs: day and night rates, each entry naming its night band (night_start, night_end). */
  four_rate_ev_electricity_tariffs: tariffTableSchema.optional(),
  single_register_gas_tariffs: tariffTableSchema.optional(),
  dual_register_gas_tariffs: tariffTableSchema.optional(),
  links: z.array(linkSchema).optional(),
  brand: z.string().optional(),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

export const agreementSchema = z.looseObject({
  tariff_code: z.string().min(1),
  valid_from: datetime,
  valid_to: datetime.nullable(),
});
export type Agreement = z.infer<typeof agreementSchema>;

export const accountSchema = z.looseObject({
  number: z.string().min(1),
  properties: z.array(
    z.looseObject({
      electricity_meter_points: z
        .array(z.looseObject({ mpan: z.string().optional(), agreements: z.array(agreementSchema) }))
        .optional(),
      gas_meter_points: z
        .array(z.looseObject({ mprn: z.string().optional(), agreements: z.array(agreementSchema) }))
        .optional(),
    }),
  ),
});
export type Account = z.infer<typeof accountSchema>;

export const krakenTokenResponseSchema = z.looseObject({
  data: z
    .looseObject({
      obtainKrakenToken: z
        .looseObject({
          token: z.string().min(1),
          payload: z.looseObject({ exp: z.number().optional(), iat: z.number().optional() }).nullable().optional(),
        })
        .nullable(),
    })
    .nullable()
    .optional(),
  errors: z.array(z.looseObject({ message: z.string().optional() })).optional(),
});

/** The supplier's 400 body. */
export const errorEnvelopeSchema = z.looseObject({
  detail: z.string().optional(),
  code: z.string().optional(),
  errors: z
    .array(z.looseObject({ detail: z.string().optional(), code: z.string().optional(), attr: z.string().optional() }))
    .optional(),
});

/** Field path of a zod issue as `a.b.0.c`. */
export function issuePath(issue: { path: PropertyKey[] }): string {
  return issue.path.map(String).join('.') || '(record)';
}
