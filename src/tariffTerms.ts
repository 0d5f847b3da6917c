// The supplier's words every layer shares, defined once: the kinds of rate a tariff has and the
// payment methods its standing charges and prices differ by.

/** standard/day/night go to unit_rates; standing_charge to standing_charges. */
export type RateKind = 'standard' | 'day' | 'night' | 'standing_charge';

export const PAYMENT_METHODS = ['DIRECT_DEBIT', 'NON_DIRECT_DEBIT'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
