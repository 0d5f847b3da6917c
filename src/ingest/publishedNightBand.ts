// The night band a supplier publishes for a tariff, for a product detail whose four-rate EV entry
// does not name one (night_start and night_end are not in the documented interface; evcc's test of
// the IOG-SMB product mocks an entry without them: evcc-io/evcc tariff/octopus/rest/api_test.go).
// Intelligent Octopus Go (Octopus's published terms; evcc's rest/api.go applies the night rate
// 23:30-05:30 UK local time) is told from its product code as BottlecapDave/HomeAssistant-
// OctopusEnergy's is_intelligent_product does: INTELLI-VAR, INTELLI-BB-VAR, INTELLI-FIX,
// INTELLI-<digit> and IOG-… products; Intelligent Octopus Flux (INTELLI-FLUX) is not one.

export interface NightBand {
  /** Minutes after Europe/London local midnight: start inclusive, end exclusive (end ≤ start
   *  crosses midnight). */
  startMinutes: number;
  endMinutes: number;
}

const INTELLIGENT_GO = /^(IOG-|INTELLI-(BB-)?VAR-|INTELLI-FIX-|INTELLI-\d)/i;

/** True for an Intelligent Octopus Go product code (INTELLI-VAR-22-10-14, IOG-SMB-VAR-24-10-29, …). */
export function isIntelligentGoProduct(productCode: string): boolean {
  return INTELLIGENT_GO.test(productCode);
}

/** The published band of the product's tariffs (IOG: 23:30-05:30 local), or undefined when unknown. */
export function publishedNightBand(productCode: string): NightBand | undefined {
  return isIntelligentGoProduct(productCode) ? { startMinutes: 23 * 60 + 30, endMinutes: 5 * 60 + 30 } : undefined;
}
