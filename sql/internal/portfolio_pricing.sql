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
-- Each meter's half-hours (slots) are built once: a meter read once at every half-hour of its
-- span has its readings as stored (their local day and settlement period london_local's, written
-- with them); any other (gridded) has its span's half-hours, each with its readings summed or none.
-- A tariff's prices are looked up once per half-hour of the spans (slot_prices), shared by every
-- meter; 'actual' joins each meter's agreements. (DuckDB 1.1 to 1.3 reading the file copy a CTE
-- into each place that names it: each is named as few times as it can be.)
-- meter_ref → read_rows → bounds → spans → slots → actual (free), slot_prices → priced → charged.
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
    -- the readings of the half-hours priced (whole_days: those of the local days whose midnight
    -- lies in the range), so that every reading lies within its meter's bounds
    SELECT c.meter_point, c.serial, c.interval_start, c.local_date, c.settlement_period, c.kwh
    FROM consumption AS c
    JOIN meter_ref AS m ON c.meter_point = m.mp
    WHERE (m.serial_no IS NULL OR c.serial = m.serial_no)
      AND c.interval_start >= coalesce(CASE WHEN whole_days
                                            THEN (SELECT min(day_start) FROM london_days WHERE day_start >= CAST(range_from AS TIMESTAMPTZ))
                                            ELSE CAST(range_from AS TIMESTAMPTZ) END,
                                       TIMESTAMPTZ '-infinity')
      AND c.interval_start < coalesce(CASE WHEN whole_days
                                           THEN (SELECT min(day_start) FROM london_days WHERE day_start >= CAST(range_to AS TIMESTAMPTZ))
                                           ELSE CAST(range_to AS TIMESTAMPTZ) END,
                                      TIMESTAMPTZ 'infinity')
),
bounds AS (
    -- each meter's half-hours: [b_from, b_to); gridded: its half-hours are taken from its span's
    -- grid (spans), because fewer of its readings lie on that grid (the half-hours starting at a
    -- multiple of 30 minutes) than it has half-hours, or because several serials read it
    SELECT meter_point, meter_no, b_from, b_to,
           several_serials
           OR read_half_hours < ((epoch_us(b_to) + 1799999999) // 1800000000 - (epoch_us(b_from) + 1799999999) // 1800000000) AS gridded
    FROM (SELECT meter_point, meter_no, read_half_hours, several_serials,
                 CASE WHEN NOT whole_days THEN f
                      WHEN range_from IS NOT NULL THEN (SELECT min(day_start) FROM london_days WHERE day_start >= f)
                      ELSE (SELECT max(day_start) FROM london_days WHERE day_start <= f) END AS b_from,
                 CASE WHEN NOT whole_days THEN t
                      ELSE (SELECT min(day_start) FROM london_days WHERE day_start >= t) END AS b_to
          FROM (SELECT m.mp AS meter_point, m.meter_no,
                       coalesce(CAST(range_from AS TIMESTAMPTZ), r.first_start) AS f,
                       coalesce(CAST(range_to AS TIMESTAMPTZ), r.last_start + INTERVAL 30 MINUTE) AS t,
                       coalesce(r.on_grid, 0) AS read_half_hours,
                       coalesce(r.several_serials, false) AS several_serials
                FROM (SELECT mp, CAST(row_number() OVER (ORDER BY mp) AS INTEGER) AS meter_no
                      FROM (SELECT DISTINCT mp FROM meter_ref)) AS m
                LEFT JOIN (SELECT meter_point, min(interval_start) AS first_start, max(interval_start) AS last_start,
                                  count(*) FILTER (WHERE epoch_us(interval_start) % 1800000000 = 0) AS on_grid,
                                  min(serial) <> max(serial) AS several_serials
                           FROM read_rows
                           GROUP BY meter_point) AS r ON r.meter_point = m.mp))
),
spans AS (
    -- each distinct span once (a portfolio's meters mostly share one), its half-hours on the
    -- local days' grid (london_days): each with the local day it is one of, and its number there
    -- (the settlement period)
    SELECT b_from, b_to, slot_start, slot_start + INTERVAL 30 MINUTE AS slot_end, local_date, settlement_period
    FROM (SELECT s.b_from, s.b_to, d.local_date,
                 unnest(generate_series(d.day_start, d.day_end - INTERVAL 30 MINUTE, INTERVAL 30 MINUTE)) AS slot_start,
                 CAST(unnest(range(1, d.slots + 1)) AS SMALLINT) AS settlement_period
          FROM (SELECT DISTINCT b_from, b_to FROM bounds WHERE b_from IS NOT NULL AND b_to IS NOT NULL) AS s
          JOIN london_days AS d ON d.day_end > s.b_from AND d.day_start < s.b_to)
    WHERE slot_start >= b_from AND slot_start < b_to
),
slots AS (
    -- each meter's half-hours with its reading, joined once per meter rather than per scenario:
    -- a meter read once at every half-hour of its span has its readings on the grid, with the
    -- local day and settlement period london_local gave them when stored ...
    SELECT r.meter_point, b.meter_no, r.local_date, r.interval_start AS slot_start,
           make_timestamptz(epoch_us(r.interval_start) + 1800000000) AS slot_end, r.settlement_period, r.kwh
    FROM read_rows AS r
    JOIN bounds AS b ON b.meter_point = r.meter_point
    WHERE NOT b.gridded
      AND epoch_us(r.interval_start) % 1800000000 = 0
    UNION ALL
    -- ... a gridded one has its span's half-hours, each with its readings there summed (one a
    -- serial reads), or none (NULL)
    SELECT b.meter_point, b.meter_no, s.local_date, s.slot_start, s.slot_end, s.settlement_period, r.kwh
    FROM bounds AS b
    JOIN spans AS s ON s.b_from = b.b_from AND s.b_to = b.b_to
    LEFT JOIN (SELECT r.meter_point, r.interval_start, sum(r.kwh) AS kwh
               FROM read_rows AS r
               JOIN bounds AS g ON g.meter_point = r.meter_point
               WHERE g.gridded
               GROUP BY r.meter_point, r.interval_start) AS r
      ON r.meter_point = b.meter_point AND r.interval_start = s.slot_start
    WHERE b.gridded
),
pairs AS (
    -- a tariff of another fuel or direction than the meter's is refused (or skipped), never priced
    -- (tariff_mismatch named once: each use of a macro is a copy of its subqueries to plan)
    SELECT meter_point, scenario
    FROM (SELECT m.mp AS meter_point, s.scenario, tariff_mismatch(m.mp, s.scenario) AS why
          FROM (SELECT DISTINCT mp FROM meter_ref) AS m,
               (SELECT DISTINCT unnest(CAST(scenarios AS VARCHAR[])) AS scenario) AS s
          WHERE s.scenario <> 'actual')
    WHERE CASE WHEN why IS NULL THEN false
               WHEN mismatches = 'skip' THEN true
               ELSE error('consumption_pricing: ' || why) END
),
open_ended AS (
    -- each tariff's last published rates, those without an end (valid_to NULL): carried forward
    SELECT tariff_code, min(valid_from) AS carried_start, min(local_date) AS carried_from
    FROM unit_rates
    WHERE valid_to IS NULL
      AND coalesce(payment_method, payment) = payment
    GROUP BY tariff_code
),
prices AS (
    -- The rates of the scenarios' and the meters' agreements' tariffs, narrowed to the range (48
    -- hours either side: whole_days moves a bound at most to a neighbouring local midnight) before
    -- long rates are expanded to half-hours (rate_slots_for); a NULL bound does not narrow.
    -- carried: a half-hour at or after its tariff's open-ended rate (carried forward), and that
    -- rate's first local day
    SELECT r.tariff_code, r.slot_start, r.value_inc_vat, r.value_exc_vat,
           coalesce(r.slot_start >= o.carried_start, false) AS carried,
           CASE WHEN r.slot_start >= o.carried_start THEN o.carried_from END AS carried_from
    FROM rate_slots_for(
        (SELECT list_concat(CAST(scenarios AS VARCHAR[]), list(DISTINCT tariff_code))
         FROM agreements
         WHERE meters IS NULL
            OR meter_point IN (SELECT split_part(m, ':', 1) FROM (SELECT unnest(CAST(meters AS VARCHAR[])) AS m))),
        CAST(range_from AS TIMESTAMPTZ) - INTERVAL 48 HOUR,
        CAST(range_to AS TIMESTAMPTZ) + INTERVAL 48 HOUR) AS r
    LEFT JOIN open_ended AS o ON o.tariff_code = r.tariff_code
    WHERE r.rate_type = 'standard'
      AND coalesce(r.payment_method, payment) = payment
),
slot_prices AS (
    -- each half-hour of the spans priced under each tariff scenario, once: the same for every
    -- meter whose span holds it
    SELECT h.slot_start, t.scenario AS tariff_code, list_position(CAST(scenarios AS VARCHAR[]), t.scenario) AS scenario_no,
           p.value_inc_vat, p.value_exc_vat,
           coalesce(p.carried, false) AS carried, p.carried_from
    FROM (SELECT DISTINCT slot_start FROM spans) AS h
    CROSS JOIN (SELECT DISTINCT unnest(CAST(scenarios AS VARCHAR[])) AS scenario) AS t
    LEFT JOIN prices AS p ON p.tariff_code = t.scenario AND p.slot_start = h.slot_start
    WHERE t.scenario <> 'actual'
),
free AS (
    -- the half-hours (on the grid) inside the meters' Power Ups: only 'actual' is billed with them
    SELECT DISTINCT meter_point, slot_start
    FROM (SELECT meter_point,
                 unnest(generate_series(
                     start_at + to_microseconds((1800000000 - epoch_us(start_at) % 1800000000) % 1800000000),
                     end_at - INTERVAL 30 MINUTE, INTERVAL 30 MINUTE)) AS slot_start
          FROM flexibility_events
          WHERE kind = 'power_up'
            AND superseded_at IS NULL
            AND joined IS DISTINCT FROM false
            AND meter_point IN (SELECT mp FROM meter_ref))
),
actual AS (
    -- 'actual': the agreement in force at each half-hour (none: NULL tariff, never priced), and
    -- whether the half-hour is inside a Power Up of the meter point
    SELECT t.meter_point, t.meter_no, t.local_date, t.slot_start, t.slot_end, t.settlement_period, t.kwh, a.tariff_code,
           fr.meter_point IS NOT NULL AS free_half_hour
    FROM slots AS t
    LEFT JOIN agreements AS a
      ON a.meter_point = t.meter_point
     AND t.slot_start >= a.valid_from
     AND t.slot_start < coalesce(a.valid_to, TIMESTAMPTZ 'infinity')
    LEFT JOIN free AS fr ON fr.meter_point = t.meter_point AND fr.slot_start = t.slot_start
    WHERE list_contains(CAST(scenarios AS VARCHAR[]), 'actual')
),
effective AS (
    SELECT meter_point, tariff_code, slot_start, value_inc_vat, value_exc_vat
    FROM effective_rates_with(dispatches, meter := CASE WHEN len(CAST(meters AS VARCHAR[])) = 1
                                                        THEN CAST(meters AS VARCHAR[])[1] END)
    WHERE dispatches <> 'none'
      AND coalesce(payment_method, payment) = payment
),
priced AS (
    SELECT a.meter_point, a.meter_no, 'actual' AS scenario, list_position(CAST(scenarios AS VARCHAR[]), 'actual') AS scenario_no, a.tariff_code, a.local_date, a.slot_start, a.slot_end, a.settlement_period, a.kwh,
           p.value_inc_vat, p.value_exc_vat,
           coalesce(p.carried, false) AS carried, p.carried_from, a.free_half_hour
    FROM actual AS a
    LEFT JOIN prices AS p ON p.tariff_code = a.tariff_code AND p.slot_start = a.slot_start
    UNION ALL
    -- a tariff code: that tariff at every half-hour, its price looked up once (slot_prices)
    SELECT t.meter_point, t.meter_no, sp.tariff_code AS scenario, sp.scenario_no, sp.tariff_code, t.local_date, t.slot_start, t.slot_end, t.settlement_period, t.kwh,
           sp.value_inc_vat, sp.value_exc_vat, sp.carried, sp.carried_from, false AS free_half_hour
    FROM slots AS t
    JOIN slot_prices AS sp ON sp.slot_start = t.slot_start
    LEFT JOIN pairs AS x ON x.meter_point = t.meter_point AND x.scenario = sp.tariff_code
    WHERE x.meter_point IS NULL
),
charged AS (
    SELECT p.meter_point, p.meter_no, p.scenario, p.scenario_no, p.tariff_code, p.local_date, p.slot_start, p.slot_end, p.settlement_period, p.kwh,
           coalesce(e.value_inc_vat, p.value_inc_vat) AS price_inc,
           coalesce(e.value_exc_vat, p.value_exc_vat) AS price_exc,
           p.value_inc_vat IS NOT NULL AS has_price,
           p.carried,
           p.carried_from,
           p.free_half_hour
    FROM priced AS p
    LEFT JOIN effective AS e ON e.meter_point = p.meter_point AND e.tariff_code = p.tariff_code AND e.slot_start = p.slot_start
)
SELECT
    -- the meter point, the scenario and the tariff pricing this half-hour
    meter_point,
    scenario,
    tariff_code,
    -- the half-hour: UTC, then its Europe/London day and settlement period
    local_date,
    slot_start,
    slot_end,
    settlement_period,
    -- consumption, price (p/kWh), cost (p, unrounded; NULL when either is missing)
    -- (a Power Up half-hour: the price if negative, else zero)
    kwh,
    CASE WHEN free_half_hour THEN least(price_inc, 0) ELSE price_inc END AS value_inc_vat,
    CASE WHEN free_half_hour THEN least(price_exc, 0) ELSE price_exc END AS value_exc_vat,
    kwh * CASE WHEN free_half_hour THEN least(price_inc, 0) ELSE price_inc END AS cost_inc_vat,
    kwh * CASE WHEN free_half_hour THEN least(price_exc, 0) ELSE price_exc END AS cost_exc_vat,
    kwh IS NOT NULL AS has_reading,
    has_price,
    -- priced at a last published rate without an end (carried forward), and that rate's first local day
    carried,
    carried_from,
    -- inside a Power Up of the meter point (actual only): free
    free_half_hour,
    -- the meter point's rank among those priced and the scenario's position in scenarios: numbers
    -- to group by (cheaper than the names)
    meter_no,
    scenario_no
FROM charged;
