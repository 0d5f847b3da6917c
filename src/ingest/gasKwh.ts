// Gas meters that report volume: kWh = m³ × 1.02264 (the volume correction factor) × CV (MJ/m³)
// ÷ 3.6 (MJ per kWh), as on every GB gas bill.
export const VOLUME_CORRECTION = 1.02264;

export function gasKwh(cubicMetres: number, calorificValue: number): number {
  return (cubicMetres * VOLUME_CORRECTION * calorificValue) / 3.6;
}
