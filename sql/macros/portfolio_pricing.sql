-- portfolio_pricing(scenarios, range_from, range_to, meters := NULL, payment := 'DIRECT_DEBIT',
-- whole_days := false, dispatches := 'default', mismatches := 'refuse'): every half-hour of every
-- meter point with consumption (meters: a list of 'MPAN' or 'MPAN:SERIAL', one per meter point)
-- priced under each scenario ('actual': the agreement in force then; or a tariff code). The one
-- place a half-hour is priced: consumption_pricing and every cost macro filter it. Half-hours per
-- meter: [range_from, range_to) (a NULL bound: its first reading / the end of its last), with
-- whole_days the local days whose midnight lies in it. No reading or no price: NULL cost, flagged
-- by has_reading/has_price. carried: priced at the tariff's last rate without an end. Intelligent
-- Octopus Go: prices of effective_rates_with(dispatches). A tariff of another fuel or direction
-- than a meter's: an error (mismatches 'refuse'), or that pair left out ('skip'). Power Up: an
-- 'actual' half-hour inside one of its meter point's is free: least(price, 0) (free_half_hour).
-- meter_ref → read_rows → readings → bounds → spans/slots → pairs → assigned → prices, effective, free → final.
CREATE OR REPLACE MACRO portfolio_pricing(scenarios, range_from, range_to, meters := NULL,
                                          payment := 'DIRECT_DEBIT', whole_days := false,
                                          dispatches := 'default', mismatches := 'refuse') AS TABLE
WITH meter_ref AS (
    SELECT DISTINCT meter_point AS mp, CAST(NULL AS VARCHAR) AS serial_no
    FROM consumption
    WHERE meters IS NULL
    UNION ALL
    SELECT DISTINCT split_part(m, ':', 1) AS mp, nullif(split_part(m, ':', 2), '') AS serial_no
    FROM (SELECT unnest(CAST(meters AS VARCHAR[])) AS m)
    WHERE meters IS NOT NULL
),
read_rows AS (
    SELECT c.meter_point, c.serial, c.interval_start, c.kwh
    FROM consumption AS c
    JOIN meter_ref AS m ON c.meter_point = m.mp
    WHERE (m.serial_no IS NULL OR c.serial = m.serial_no)
      AND c.interval_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      -- whole_days: the last day whose midnight lies before range_to counts whole
      AND c.interval_start < coalesce(CASE WHEN whole_days
                                           THEN (SELECT min(day_start) FROM london_days WHERE day_start >= CAST(range_to AS TIMESTAMPTZ))
                                           ELSE CAST(range_to AS TIMESTAMPTZ) END,
                                      TIMESTAMPTZ 'infinity')
),
several_serials AS (
    SELECT meter_point FROM read_rows GROUP BY meter_point HAVING min(serial) <> max(serial)
),
readings AS (
    -- one row per meter point and half-hour: a meter point read by one serial has one already
    -- (consumption's key), the readings of several serials are summed
    SELECT meter_point, interval_start AS slot_start, kwh
    FROM read_rows
    WHERE meter_point NOT IN (SELECT meter_point FROM several_serials)
    UNION ALL
    SELECT meter_point, interval_start AS slot_start, sum(kwh) AS kwh
    FROM read_rows
    WHERE meter_point IN (SELECT meter_point FROM several_serials)
    GROUP BY meter_point, interval_start
),
raw_bounds AS (
    SELECT m.mp AS meter_point,
           coalesce(CAST(range_from AS TIMESTAMPTZ), min(r.slot_start)) AS f,
           coalesce(CAST(range_to AS TIMESTAMPTZ), max(r.slot_start) + INTERVAL 30 MINUTE) AS t
    FROM meter_ref AS m
    LEFT JOIN readings AS r ON r.meter_point = m.mp
    GROUP BY m.mp
),
bounds AS (
    SELECT meter_point,
           CASE WHEN NOT whole_days THEN f
                WHEN range_from IS NOT NULL THEN (SELECT min(day_start) FROM london_days WHERE day_start >= f)
                ELSE (SELECT max(day_start) FROM london_days WHERE day_start <= f) END AS b_from,
           CASE WHEN NOT whole_days THEN t
                ELSE (SELECT min(day_start) FROM london_days WHERE day_start >= t) END AS b_to
    FROM raw_bounds
),
spans AS (
    -- each distinct span once (a portfolio's meters mostly share one), its half-hours on the
    -- local days' grid (london_days), their fields london_local's
    SELECT b_from, b_to, slot_start,
           london_local(slot_start).local_date AS local_date,
           london_local(slot_start).settlement_period AS settlement_period
    FROM (SELECT s.b_from, s.b_to,
                 unnest(generate_series(d.day_start, d.day_end - INTERVAL 30 MINUTE, INTERVAL 30 MINUTE)) AS slot_start
          FROM (SELECT DISTINCT b_from, b_to FROM bounds WHERE b_from IS NOT NULL AND b_to IS NOT NULL) AS s
          JOIN london_days AS d ON d.day_end > s.b_from AND d.day_start < s.b_to)
    WHERE slot_start >= b_from AND slot_start < b_to
),
slots AS (
    -- each meter's half-hours with its reading, joined once per meter rather than per scenario
    SELECT b.meter_point, s.local_date, s.slot_start, s.settlement_period, r.kwh
    FROM bounds AS b
    JOIN spans AS s ON s.b_from = b.b_from AND s.b_to = b.b_to
    LEFT JOIN readings AS r ON r.meter_point = b.meter_point AND r.slot_start = s.slot_start
),
pairs AS (
    -- a tariff of another fuel or direction than the meter's is refused (or skipped), never priced
    SELECT m.mp AS meter_point, s.scenario
    FROM (SELECT DISTINCT mp FROM meter_ref) AS m,
         (SELECT DISTINCT unnest(CAST(scenarios AS VARCHAR[])) AS scenario) AS s
    WHERE CASE WHEN s.scenario = 'actual' OR tariff_mismatch(m.mp, s.scenario) IS NULL THEN true
               WHEN mismatches = 'skip' THEN false
               ELSE error('consumption_pricing: ' || tariff_mismatch(m.mp, s.scenario)) END
),
assigned AS (
    -- 'actual': the agreement in force at each half-hour (none: NULL tariff, never priced)
    SELECT t.meter_point, 'actual' AS scenario, t.local_date, t.slot_start, t.settlement_period, t.kwh, a.tariff_code
    FROM slots AS t
    JOIN pairs AS p ON p.meter_point = t.meter_point AND p.scenario = 'actual'
    LEFT JOIN agreements AS a
      ON a.meter_point = t.meter_point
     AND t.slot_start >= a.valid_from
     AND t.slot_start < coalesce(a.valid_to, TIMESTAMPTZ 'infinity')
    UNION ALL
    -- a tariff code: that tariff at every half-hour
    SELECT t.meter_point, p.scenario, t.local_date, t.slot_start, t.settlement_period, t.kwh, p.scenario AS tariff_code
    FROM pairs AS p
    JOIN slots AS t ON t.meter_point = p.meter_point
    WHERE p.scenario <> 'actual'
),
prices AS (
    -- The rates of the scenarios' and the meters' agreements' tariffs, narrowed to the range (48
    -- hours either side: whole_days moves a bound at most to a neighbouring local midnight) before
    -- long rates are expanded to half-hours (rate_slots_for); a NULL bound does not narrow.
    SELECT tariff_code, slot_start, value_inc_vat, value_exc_vat
    FROM rate_slots_for(
        (SELECT list_concat(CAST(scenarios AS VARCHAR[]), list(DISTINCT tariff_code))
         FROM agreements
         WHERE meters IS NULL
            OR meter_point IN (SELECT split_part(m, ':', 1) FROM (SELECT unnest(CAST(meters AS VARCHAR[])) AS m))),
        CAST(range_from AS TIMESTAMPTZ) - INTERVAL 48 HOUR,
        CAST(range_to AS TIMESTAMPTZ) + INTERVAL 48 HOUR)
    WHERE rate_type = 'standard'
      AND coalesce(payment_method, payment) = payment
),
effective AS (
    SELECT meter_point, tariff_code, slot_start, value_inc_vat, value_exc_vat
    FROM effective_rates_with(dispatches, meter := CASE WHEN len(CAST(meters AS VARCHAR[])) = 1
                                                        THEN CAST(meters AS VARCHAR[])[1] END)
    WHERE dispatches <> 'none'
      AND coalesce(payment_method, payment) = payment
),
free AS (
    -- the half-hours of the meters' Power Ups: only 'actual' is billed with them
    SELECT DISTINCT a.meter_point, a.slot_start
    FROM assigned AS a
    JOIN flexibility_events AS f
      ON f.meter_point = a.meter_point
     AND a.slot_start >= f.start_at
     AND a.slot_start + INTERVAL 30 MINUTE <= f.end_at
    WHERE a.scenario = 'actual'
      AND f.kind = 'power_up'
      AND f.superseded_at IS NULL
      AND f.joined IS DISTINCT FROM false
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
    -- the meter point, the scenario and the tariff pricing this half-hour
    a.meter_point,
    a.scenario,
    a.tariff_code,
    -- the half-hour: UTC, then its Europe/London day and settlement period
    a.local_date,
    a.slot_start,
    a.slot_start + INTERVAL 30 MINUTE AS slot_end,
    a.settlement_period,
    -- consumption, price (p/kWh), cost (p, unrounded; NULL when either is missing)
    -- (a Power Up half-hour: the price if negative, else zero)
    a.kwh,
    CASE WHEN fr.meter_point IS NULL THEN coalesce(e.value_inc_vat, p.value_inc_vat)
         ELSE least(coalesce(e.value_inc_vat, p.value_inc_vat), 0) END AS value_inc_vat,
    CASE WHEN fr.meter_point IS NULL THEN coalesce(e.value_exc_vat, p.value_exc_vat)
         ELSE least(coalesce(e.value_exc_vat, p.value_exc_vat), 0) END AS value_exc_vat,
    a.kwh * CASE WHEN fr.meter_point IS NULL THEN coalesce(e.value_inc_vat, p.value_inc_vat)
                 ELSE least(coalesce(e.value_inc_vat, p.value_inc_vat), 0) END AS cost_inc_vat,
    a.kwh * CASE WHEN fr.meter_point IS NULL THEN coalesce(e.value_exc_vat, p.value_exc_vat)
                 ELSE least(coalesce(e.value_exc_vat, p.value_exc_vat), 0) END AS cost_exc_vat,
    a.kwh IS NOT NULL AS has_reading,
    p.value_inc_vat IS NOT NULL AS has_price,
    -- priced at a last published rate without an end (carried forward), and that rate's first local day
    coalesce(p.value_inc_vat IS NOT NULL AND a.slot_start >= o.carried_start, false) AS carried,
    CASE WHEN p.value_inc_vat IS NOT NULL AND a.slot_start >= o.carried_start THEN o.carried_from END AS carried_from,
    -- inside a Power Up of the meter point (actual only): free
    fr.meter_point IS NOT NULL AS free_half_hour
FROM assigned AS a
LEFT JOIN prices AS p ON p.tariff_code = a.tariff_code AND p.slot_start = a.slot_start
LEFT JOIN effective AS e ON e.meter_point = a.meter_point AND e.tariff_code = a.tariff_code AND e.slot_start = a.slot_start
LEFT JOIN open_ended AS o ON o.tariff_code = a.tariff_code
LEFT JOIN free AS fr ON fr.meter_point = a.meter_point AND fr.slot_start = a.slot_start AND a.scenario = 'actual';
