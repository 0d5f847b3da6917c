-- @answers Every meter's costs per Europe/London local day under each scenario ('actual' or a tariff).
-- @arg scenarios | VARCHAR[] |  | 'actual' (the agreements) and/or tariff codes
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg meters := NULL | VARCHAR[] |  | meter points (NULL: every meter with consumption in the range)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' standing charges
-- @arg dispatches := 'default' | VARCHAR |  | Intelligent Octopus Go: 'default', 'completed', 'planned' or 'none'
-- @arg mismatches := 'refuse' | VARCHAR |  | a tariff of another fuel or direction than a meter's: 'refuse' or 'skip'
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column scenario | VARCHAR |  | 'actual' (the agreements) or a tariff code
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column local_date | DATE |  | Europe/London local date
-- @column half_hours | INTEGER | half-hours | counted
-- @column is_export | BOOLEAN |  | an export meter
-- @column kwh | DOUBLE | kWh | consumption
-- @column energy_cost_inc_vat | DOUBLE | p | Σ kWh × price inc VAT, unrounded
-- @column energy_cost_exc_vat | DOUBLE | p | Σ kWh × price exc VAT, unrounded
-- @column standing_charge_inc_vat | DOUBLE | p | standing charges inc VAT (one a local day)
-- @column standing_charge_exc_vat | DOUBLE | p | standing charges exc VAT
-- @column total_inc_vat | DOUBLE | p | energy plus standing charges inc VAT, unrounded (null: nothing priced)
-- @column total_exc_vat | DOUBLE | p | energy plus standing charges exc VAT, unrounded
-- @column total_gbp | DECIMAL(18,2) | £ | total_inc_vat in pounds, rounded once (null: nothing priced)
-- @column missing_prices | INTEGER | half-hours | with a reading but no price
-- @column missing_readings | INTEGER | half-hours | with a price but no reading
-- @column missing_half_hours | INTEGER | half-hours | without a reading or without a price
-- @column standing_charge_missing | BOOLEAN |  | the day's standing charge is not stored
-- @column complete | BOOLEAN |  | nothing missing: every half-hour has a reading and a price, every day its standing charge
-- @column carried_half_hours | INTEGER | half-hours | priced by a carried rate (valid_to null), not a price published for them
-- @column carried_from | DATE |  | the first day priced by a carried rate (null: none)
-- @column free_half_hours | INTEGER | half-hours | free in a Power Up event, priced at zero
-- @example SELECT * FROM portfolio_daily_costs(['actual', 'E-1R-AGILE-18-02-21-J'], TIMESTAMPTZ '2023-10-28 00:00:00+01', TIMESTAMPTZ '2023-10-31 00:00:00Z', mismatches := 'skip')
--
-- portfolio_daily_costs(scenarios, range_from, range_to, meters := NULL, payment := 'DIRECT_DEBIT',
-- dispatches := 'default', mismatches := 'refuse'): each meter point's Europe/London local days
-- (whose midnight lies in the range; a NULL bound: the days of its first / last reading) per
-- scenario (see portfolio_pricing): kWh, energy cost, the standing charge (once per local day: the
-- charge of the day's tariff valid at the day's start, for the payment method given, else the one
-- quoted without one; none for export meters) and the total, pence unrounded, total_gbp rounded
-- once. A day's total is its energy (what is priced) plus its standing charge: a day without
-- readings owes its standing charge; with nothing priced and no standing charge it has no total
-- (NULL, never zero). complete: every half-hour has a reading and a price, and the charge is known.
-- free_half_hours: those inside a Power Up (priced free by portfolio_pricing).
-- priced → days; charges (each tariff's standing charges as a timeline); days with their charge
-- (final) → totals.
CREATE OR REPLACE MACRO portfolio_daily_costs(scenarios, range_from, range_to, meters := NULL,
                                              payment := 'DIRECT_DEBIT', dispatches := 'default',
                                              mismatches := 'refuse') AS TABLE
WITH days AS (
    -- grouped by portfolio_pricing's numbers for the meter point and the scenario (cheaper to
    -- group by than the names they stand for)
    SELECT any_value(meter_point) AS meter_point, any_value(scenario) AS scenario, local_date,
           -- the tariff at the day's first half-hour (every day priced is whole)
           any_value(tariff_code) FILTER (WHERE settlement_period = 1) AS day_tariff,
           count(*) AS half_hours,
           sum(kwh) AS kwh,
           sum(cost_inc_vat) AS energy_cost_inc_vat,
           sum(cost_exc_vat) AS energy_cost_exc_vat,
           count(*) FILTER (WHERE NOT has_price) AS missing_prices,
           count(*) FILTER (WHERE NOT has_reading) AS missing_readings,
           count(*) FILTER (WHERE NOT (has_price AND has_reading)) AS missing_half_hours,
           count(*) FILTER (WHERE carried) AS carried_half_hours,
           min(carried_from) AS carried_from,
           count(*) FILTER (WHERE free_half_hour) AS free_half_hours
    FROM portfolio_pricing(scenarios, range_from, range_to, meters := meters, payment := payment,
                           whole_days := true, dispatches := dispatches, mismatches := mismatches)
    GROUP BY meter_no, scenario_no, local_date
),
charges AS (
    -- each tariff's standing charge as a timeline of its own, for the payment method given: between
    -- two consecutive bounds (valid_from or valid_to of any of its charges) the same charge applies,
    -- the one valid at the piece's start quoted for that payment method, else without one, the
    -- latest valid_from first; so a day takes the piece holding its start, one at most
    SELECT tariff_code, piece_from, piece_to, value_inc_vat, value_exc_vat
    FROM (SELECT p.tariff_code, p.piece_from, p.piece_to, s.value_inc_vat, s.value_exc_vat,
                 row_number() OVER (PARTITION BY p.tariff_code, p.piece_from
                                    ORDER BY s.payment_method NULLS LAST, s.valid_from DESC) AS pick
          FROM (SELECT tariff_code, bound AS piece_from,
                       lead(bound) OVER (PARTITION BY tariff_code ORDER BY bound) AS piece_to
                FROM (SELECT DISTINCT tariff_code, unnest([valid_from, valid_to]) AS bound
                      FROM standing_charges
                      WHERE coalesce(payment_method, payment) = payment)
                WHERE bound IS NOT NULL) AS p
          JOIN standing_charges AS s
            ON s.tariff_code = p.tariff_code
           AND s.valid_from <= p.piece_from
           AND (s.valid_to IS NULL OR s.valid_to > p.piece_from)
           AND coalesce(s.payment_method, payment) = payment)
    WHERE pick = 1
),
final AS (
    -- the standing charge of the day's tariff valid at its start (london_days: every day priced is
    -- whole; see charges)
    SELECT d.*,
           coalesce(m.is_export, false) AS is_export,
           CASE WHEN m.is_export THEN 0 ELSE c.value_inc_vat END AS standing_charge_inc_vat,
           CASE WHEN m.is_export THEN 0 ELSE c.value_exc_vat END AS standing_charge_exc_vat,
           -- what the total adds: nothing for an export meter (no charge), NULL when unknown
           CASE WHEN m.is_export THEN NULL ELSE c.value_inc_vat END AS owed_inc_vat,
           CASE WHEN m.is_export THEN NULL ELSE c.value_exc_vat END AS owed_exc_vat
    FROM days AS d
    JOIN london_days AS l USING (local_date)
    LEFT JOIN meter_points AS m USING (meter_point)
    LEFT JOIN charges AS c
      ON c.tariff_code = d.day_tariff
     AND c.piece_from <= l.day_start
     AND (c.piece_to IS NULL OR c.piece_to > l.day_start)
),
totals AS (
    SELECT *,
           CASE WHEN energy_cost_inc_vat IS NOT NULL OR owed_inc_vat IS NOT NULL
                THEN coalesce(energy_cost_inc_vat, 0) + coalesce(owed_inc_vat, 0) END AS total_inc_vat,
           CASE WHEN energy_cost_exc_vat IS NOT NULL OR owed_exc_vat IS NOT NULL
                THEN coalesce(energy_cost_exc_vat, 0) + coalesce(owed_exc_vat, 0) END AS total_exc_vat
    FROM final
)
SELECT
    -- the meter point, the scenario ('actual' or a tariff code), the tariff at the day's start, the day
    meter_point,
    scenario,
    day_tariff AS tariff_code,
    local_date,
    CAST(half_hours AS INTEGER) AS half_hours,
    is_export,
    -- energy and costs, pence inc/exc VAT, unrounded
    kwh,
    energy_cost_inc_vat,
    energy_cost_exc_vat,
    standing_charge_inc_vat,
    standing_charge_exc_vat,
    -- energy priced plus the standing charge; nothing of either: no total, never a zero
    total_inc_vat,
    total_exc_vat,
    round_gbp(total_inc_vat) AS total_gbp,
    -- what is missing (never priced at zero)
    CAST(missing_prices AS INTEGER) AS missing_prices,
    CAST(missing_readings AS INTEGER) AS missing_readings,
    CAST(missing_half_hours AS INTEGER) AS missing_half_hours,
    standing_charge_inc_vat IS NULL AS standing_charge_missing,
    missing_half_hours = 0 AND standing_charge_inc_vat IS NOT NULL AS complete,
    -- half-hours priced at a last published rate carried forward (see portfolio_pricing)
    CAST(carried_half_hours AS INTEGER) AS carried_half_hours,
    carried_from,
    -- half-hours inside a Power Up (free; see portfolio_pricing)
    CAST(free_half_hours AS INTEGER) AS free_half_hours
FROM totals;
