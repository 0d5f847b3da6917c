-- @answers For readings imported from the supplier's CSV with its costs: its estimate beside ours, per meter and local day.
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column serial | VARCHAR |  | the meter's serial number
-- @column local_date | DATE |  | Europe/London local date
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column half_hours | INTEGER | half-hours | counted
-- @column kwh | DOUBLE | kWh | consumption
-- @column supplier_energy_cost_inc_vat | DOUBLE | p | the supplier's estimate from its CSV
-- @column our_energy_cost_inc_vat | DOUBLE | p | the readings priced at the agreement in force, unrounded
-- @column difference_inc_vat | DOUBLE | p | ours minus the supplier's
-- @column supplier_standing_charge_inc_vat | DOUBLE | p | the supplier's standing charge from its CSV
-- @column missing_prices | INTEGER | half-hours | with a reading but no price
--
-- supplier_cost_check: for readings imported from the supplier's CSV with its estimated costs,
-- per meter and Europe/London day: the supplier's estimate beside ours (each half-hour priced at
-- the agreement in force; pence inc VAT, unrounded) and the difference. The supplier's standing
-- charge column is read as a share per half-hour and summed over the day.
-- supplier → ours → final.
CREATE OR REPLACE VIEW supplier_cost_check AS
WITH supplier AS (
    SELECT meter_point, serial, interval_start, local_date, kwh,
           supplier_cost_inc_vat, supplier_standing_charge_inc_vat
    FROM consumption
    WHERE supplier_cost_inc_vat IS NOT NULL
),
ours AS (
    SELECT s.meter_point, s.serial, s.local_date,
           count(*) AS half_hours,
           sum(s.kwh) AS kwh,
           sum(s.supplier_cost_inc_vat) AS supplier_energy_cost_inc_vat,
           sum(s.supplier_standing_charge_inc_vat) AS supplier_standing_charge_inc_vat,
           sum(s.kwh * r.value_inc_vat) AS our_energy_cost_inc_vat,
           count(*) FILTER (WHERE r.value_inc_vat IS NULL) AS missing_prices,
           arg_min(a.tariff_code, s.interval_start) AS tariff_code
    FROM supplier AS s
    LEFT JOIN agreements AS a
      ON a.meter_point = s.meter_point
     AND s.interval_start >= a.valid_from
     AND s.interval_start < coalesce(a.valid_to, TIMESTAMPTZ 'infinity')
    LEFT JOIN rate_slots AS r
      ON r.tariff_code = a.tariff_code AND r.slot_start = s.interval_start AND r.rate_type = 'standard'
     AND coalesce(r.payment_method, 'DIRECT_DEBIT') = 'DIRECT_DEBIT'
    GROUP BY s.meter_point, s.serial, s.local_date
)
SELECT
    meter_point,
    serial,
    local_date,
    tariff_code,
    CAST(half_hours AS INTEGER) AS half_hours,
    kwh,
    supplier_energy_cost_inc_vat,
    our_energy_cost_inc_vat,
    our_energy_cost_inc_vat - supplier_energy_cost_inc_vat AS difference_inc_vat,
    supplier_standing_charge_inc_vat,
    CAST(missing_prices AS INTEGER) AS missing_prices
FROM ours;
