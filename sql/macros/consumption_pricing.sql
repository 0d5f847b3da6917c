-- consumption_pricing(meter, scenarios, range_from, range_to, payment := 'DIRECT_DEBIT',
-- whole_days := false, dispatches := 'default'): every half-hour of a meter ('MPAN', its serials
-- summed, or 'MPAN:SERIAL') priced under each scenario (a tariff code, or 'actual': the agreement
-- in force then). Half-hours: [range_from, range_to) (a NULL bound: the first reading / the end
-- of the last), with whole_days the local days whose midnight lies in it. No reading or no price:
-- NULL cost (never zero), flagged by has_reading/has_price. Pence, unrounded; unit rates of
-- rate_type standard, the payment method given or none. carried: priced at the tariff's last rate
-- without an end (carried_from: its first local day). Intelligent Octopus Go accounts: prices of
-- effective_rates_with(dispatches): 'default', 'completed', 'planned' or 'none' (night band only).
-- meter_ref → readings → bounds → slots → assigned (scenario's tariff) → prices (→ effective) → final.
CREATE OR REPLACE MACRO consumption_pricing(meter, scenarios, range_from, range_to,
                                            payment := 'DIRECT_DEBIT', whole_days := false,
                                            dispatches := 'default') AS TABLE
WITH meter_ref AS (
    SELECT split_part(meter, ':', 1) AS mp, nullif(split_part(meter, ':', 2), '') AS serial_no
),
readings AS (
    SELECT c.interval_start AS slot_start, sum(c.kwh) AS kwh
    FROM consumption AS c, meter_ref AS m
    WHERE c.meter_point = m.mp
      AND (m.serial_no IS NULL OR c.serial = m.serial_no)
      AND c.interval_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      -- whole_days: the last day whose midnight lies before range_to counts whole
      AND c.interval_start < coalesce(CASE WHEN whole_days
                                           THEN (SELECT min(day_start) FROM london_days WHERE day_start >= CAST(range_to AS TIMESTAMPTZ))
                                           ELSE CAST(range_to AS TIMESTAMPTZ) END,
                                      TIMESTAMPTZ 'infinity')
    GROUP BY c.interval_start
),
raw_bounds AS (
    SELECT coalesce(CAST(range_from AS TIMESTAMPTZ), min(slot_start)) AS f,
           coalesce(CAST(range_to AS TIMESTAMPTZ), max(slot_start) + INTERVAL 30 MINUTE) AS t
    FROM readings
),
bounds AS (
    SELECT CASE WHEN NOT whole_days THEN f
                WHEN range_from IS NOT NULL THEN (SELECT min(day_start) FROM london_days WHERE day_start >= f)
                ELSE (SELECT max(day_start) FROM london_days WHERE day_start <= f) END AS b_from,
           CASE WHEN NOT whole_days THEN t
                ELSE (SELECT min(day_start) FROM london_days WHERE day_start >= t) END AS b_to
    FROM raw_bounds
),
slots AS (
    -- every half-hour of the bounds, on the local days' grid (london_days), its fields london_local's
    SELECT london_local(slot_start).local_date AS local_date, slot_start,
           london_local(slot_start).settlement_period AS settlement_period
    FROM (SELECT unnest(generate_series(d.day_start, d.day_end - INTERVAL 30 MINUTE, INTERVAL 30 MINUTE)) AS slot_start
          FROM london_days AS d, bounds AS b
          WHERE d.day_end > b.b_from AND d.day_start < b.b_to), bounds AS b
    WHERE slot_start >= b.b_from AND slot_start < b.b_to
),
scenario_list AS (
    -- a tariff of another fuel or direction than the meter's is refused, never priced
    SELECT DISTINCT scenario
    FROM (SELECT unnest(scenarios) AS scenario)
    WHERE CASE WHEN scenario = 'actual' OR tariff_mismatch(meter, scenario) IS NULL THEN true
               ELSE error('consumption_pricing: ' || tariff_mismatch(meter, scenario)) END
),
assigned AS (
    -- 'actual': the agreement in force at each half-hour (none: NULL tariff, never priced)
    SELECT 'actual' AS scenario, t.local_date, t.slot_start, t.settlement_period, a.tariff_code
    FROM slots AS t
    LEFT JOIN (SELECT * FROM agreements WHERE meter_point = (SELECT mp FROM meter_ref)) AS a
      ON t.slot_start >= a.valid_from
     AND t.slot_start < coalesce(a.valid_to, TIMESTAMPTZ 'infinity')
    WHERE 'actual' IN (SELECT scenario FROM scenario_list)
    UNION ALL
    -- a tariff code: that tariff at every half-hour
    SELECT s.scenario, t.local_date, t.slot_start, t.settlement_period, s.scenario AS tariff_code
    FROM scenario_list AS s
    CROSS JOIN slots AS t
    WHERE s.scenario <> 'actual'
),
prices AS (
    -- The rates of the scenarios' and the meter's agreements' tariffs around the range, narrowed
    -- before long rates are expanded to half-hours (rate_slots_for; a filter on rate_slots comes
    -- after every tariff's expansion); the join to assigned keeps the half-hours in the bounds.
    -- The range: the one asked for, else the meter's readings, 48 hours either side (whole_days
    -- moves a bound at most to a neighbouring local midnight). Two branches, of which DuckDB keeps
    -- the one the arguments call for: with both bounds given, the range as plain values, which
    -- DuckDB filters the scan by; without, each bound one scalar subquery on the macro's own
    -- arguments (DuckDB 1.1-1.3 plan a subquery over the bounds' CTEs again at each of
    -- rate_slots_for's uses of it).
    SELECT tariff_code, slot_start, value_inc_vat, value_exc_vat
    FROM rate_slots_for(
        (SELECT list_concat(CAST(scenarios AS VARCHAR[]), list(tariff_code))
         FROM agreements WHERE meter_point = split_part(meter, ':', 1)),
        CAST(range_from AS TIMESTAMPTZ) - INTERVAL 48 HOUR,
        CAST(range_to AS TIMESTAMPTZ) + INTERVAL 48 HOUR)
    WHERE range_from IS NOT NULL AND range_to IS NOT NULL
      AND rate_type = 'standard'
      AND coalesce(payment_method, payment) = payment
    UNION ALL
    SELECT tariff_code, slot_start, value_inc_vat, value_exc_vat
    FROM rate_slots_for(
        (SELECT list_concat(CAST(scenarios AS VARCHAR[]), list(tariff_code))
         FROM agreements WHERE meter_point = split_part(meter, ':', 1)),
        (SELECT coalesce(CAST(range_from AS TIMESTAMPTZ), min(interval_start)) - INTERVAL 48 HOUR
         FROM consumption WHERE meter_point = split_part(meter, ':', 1)),
        (SELECT coalesce(CAST(range_to AS TIMESTAMPTZ), max(interval_end)) + INTERVAL 48 HOUR
         FROM consumption WHERE meter_point = split_part(meter, ':', 1)))
    WHERE (range_from IS NULL OR range_to IS NULL)
      AND rate_type = 'standard'
      AND coalesce(payment_method, payment) = payment
),
effective AS (
    SELECT tariff_code, slot_start, value_inc_vat, value_exc_vat
    FROM effective_rates_with(dispatches, meter := meter)
    WHERE dispatches <> 'none'
      AND coalesce(payment_method, payment) = payment
      AND slot_start >= (SELECT b_from FROM bounds)
      AND slot_start < (SELECT b_to FROM bounds)
),
open_ended AS (
    -- each tariff's last published rates, those without an end (valid_to NULL): carried forward
    SELECT tariff_code, min(valid_from) AS carried_start, min(local_date) AS carried_from
    FROM unit_rates
    WHERE valid_to IS NULL
      AND coalesce(payment_method, payment) = payment
    GROUP BY tariff_code
)
SELECT
    -- scenario and the tariff pricing this half-hour
    a.scenario,
    a.tariff_code,
    -- the half-hour: UTC, then its Europe/London day and settlement period
    a.local_date,
    a.slot_start,
    a.slot_start + INTERVAL 30 MINUTE AS slot_end,
    a.settlement_period,
    -- consumption, price (p/kWh), cost (p, unrounded; NULL when either is missing)
    r.kwh,
    coalesce(e.value_inc_vat, p.value_inc_vat) AS value_inc_vat,
    coalesce(e.value_exc_vat, p.value_exc_vat) AS value_exc_vat,
    r.kwh * coalesce(e.value_inc_vat, p.value_inc_vat) AS cost_inc_vat,
    r.kwh * coalesce(e.value_exc_vat, p.value_exc_vat) AS cost_exc_vat,
    r.kwh IS NOT NULL AS has_reading,
    p.value_inc_vat IS NOT NULL AS has_price,
    -- priced at a last published rate without an end (carried forward), and that rate's first local day
    coalesce(p.value_inc_vat IS NOT NULL AND a.slot_start >= o.carried_start, false) AS carried,
    CASE WHEN p.value_inc_vat IS NOT NULL AND a.slot_start >= o.carried_start THEN o.carried_from END AS carried_from
FROM assigned AS a
LEFT JOIN readings AS r ON r.slot_start = a.slot_start
LEFT JOIN prices AS p ON p.tariff_code = a.tariff_code AND p.slot_start = a.slot_start
LEFT JOIN effective AS e ON e.tariff_code = a.tariff_code AND e.slot_start = a.slot_start
LEFT JOIN open_ended AS o ON o.tariff_code = a.tariff_code;
