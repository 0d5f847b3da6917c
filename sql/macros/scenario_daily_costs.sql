-- scenario_daily_costs(meter, scenarios, range_from, range_to, payment := 'DIRECT_DEBIT'): each
-- Europe/London local day (whose midnight lies in the range; a NULL bound: the days of the first
-- / last reading) per scenario (see consumption_pricing): kWh, energy cost, the standing charge
-- (once per local day: the charge of the day's tariff valid at the day's start, for the payment
-- method given, else the one quoted without one; none for export meters), and the total, pence
-- unrounded, and total_gbp rounded once. Missing half-hours are counted, never priced at zero:
-- complete is false when any half-hour lacks a reading or a price, or the standing charge is unknown;
-- a day with no half-hour priced has no total (NULL), an incomplete one the total of what is priced.
-- priced → days → standing → final.
CREATE OR REPLACE MACRO scenario_daily_costs(meter, scenarios, range_from, range_to, payment := 'DIRECT_DEBIT',
                                             dispatches := 'default') AS TABLE
WITH priced AS (
    SELECT * FROM consumption_pricing(meter, scenarios, range_from, range_to, payment := payment, whole_days := true,
                                      dispatches := dispatches)
),
export_meter AS (
    SELECT coalesce(max(is_export), false) AS is_export
    FROM meter_points
    WHERE meter_point = split_part(meter, ':', 1)
),
days AS (
    SELECT scenario, local_date,
           min(slot_start) AS day_start,
           arg_min(tariff_code, slot_start) AS day_tariff,
           count(*) AS half_hours,
           sum(kwh) AS kwh,
           sum(cost_inc_vat) AS energy_cost_inc_vat,
           sum(cost_exc_vat) AS energy_cost_exc_vat,
           count(*) FILTER (WHERE NOT has_price) AS missing_prices,
           count(*) FILTER (WHERE NOT has_reading) AS missing_readings,
           count(*) FILTER (WHERE NOT (has_price AND has_reading)) AS missing_half_hours,
           count(*) FILTER (WHERE carried) AS carried_half_hours,
           min(carried_from) AS carried_from
    FROM priced
    GROUP BY scenario, local_date
),
standing AS (
    SELECT d.scenario, d.local_date, s.value_inc_vat, s.value_exc_vat
    FROM days AS d
    JOIN standing_charges AS s
      ON s.tariff_code = d.day_tariff
     AND s.valid_from <= d.day_start
     AND (s.valid_to IS NULL OR s.valid_to > d.day_start)
     AND coalesce(s.payment_method, payment) = payment
    QUALIFY row_number() OVER (PARTITION BY d.scenario, d.local_date
                               ORDER BY s.payment_method NULLS LAST, s.valid_from DESC) = 1
),
final AS (
    SELECT d.*,
           CASE WHEN e.is_export THEN 0 ELSE s.value_inc_vat END AS standing_charge_inc_vat,
           CASE WHEN e.is_export THEN 0 ELSE s.value_exc_vat END AS standing_charge_exc_vat,
           e.is_export
    FROM days AS d
    CROSS JOIN export_meter AS e
    LEFT JOIN standing AS s USING (scenario, local_date)
)
SELECT
    -- scenario ('actual' or a tariff code), the tariff at the day's start, the local day
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
    -- no half-hour priced (no price, or no reading): no total, never a zero
    energy_cost_inc_vat + coalesce(standing_charge_inc_vat, 0) AS total_inc_vat,
    energy_cost_exc_vat + coalesce(standing_charge_exc_vat, 0) AS total_exc_vat,
    CAST(CAST(energy_cost_inc_vat + coalesce(standing_charge_inc_vat, 0) AS DECIMAL(18, 9)) * 0.01 AS DECIMAL(18, 2)) AS total_gbp,
    -- what is missing (never priced at zero)
    CAST(missing_prices AS INTEGER) AS missing_prices,
    CAST(missing_readings AS INTEGER) AS missing_readings,
    CAST(missing_half_hours AS INTEGER) AS missing_half_hours,
    standing_charge_inc_vat IS NULL AS standing_charge_missing,
    missing_half_hours = 0 AND standing_charge_inc_vat IS NOT NULL AS complete,
    -- half-hours priced at a last published rate carried forward (see consumption_pricing)
    CAST(carried_half_hours AS INTEGER) AS carried_half_hours,
    carried_from
FROM final;
