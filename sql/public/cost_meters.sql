-- @answers The meters an export prices (a reading in the range) and, for each, the tariffs of its fuel and direction it is compared at.
-- @arg tariff_codes | VARCHAR[] |  | tariff codes to compare each meter at, beside its agreements' tariffs
-- @arg cost_from | TIMESTAMPTZ | UTC | inclusive start of the readings (NULL: unbounded); write it with an offset
-- @arg cost_to | TIMESTAMPTZ | UTC | exclusive end of the readings (NULL: unbounded)
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column is_export | BOOLEAN |  | an export meter (false when the meter point is not in meter_points)
-- @column tariffs | VARCHAR[] |  | the tariffs it is compared at, sorted (empty: priced at its agreements only)
-- @example SELECT * FROM cost_meters(['E-1R-AGILE-18-02-21-J', 'E-1R-VAR-17-01-11-A', 'E-1R-AGILE-OUTGOING-19-05-13-C'], NULL, NULL)
--
-- cost_meters(tariff_codes, cost_from, cost_to): the meters an export prices and, for each, the
-- tariffs it is compared at: every meter with a reading starting in [cost_from, cost_to)
-- (TIMESTAMPTZ; NULL: open), with the listed tariffs (VARCHAR[]) and the meter's agreement tariffs
-- that have prices during its readings and match its fuel and direction (tariff_direction,
-- tariff_mismatch: import tariffs for import meters, Outgoing for export meters, gas for gas).
-- Columns: meter_point; is_export (BOOLEAN; false when the meter point is not in meter_points);
-- tariffs (VARCHAR[], sorted; empty: priced at its agreements only). The argument meter_scope of
-- scope_monthly_costs, scope_comparison and the report_* cost macros is list(cost_meters row).
CREATE OR REPLACE MACRO cost_meters(tariff_codes, cost_from, cost_to) AS TABLE
WITH meters AS (
    SELECT c.meter_point, coalesce(any_value(m.is_export), false) AS is_export,
           min(c.interval_start) AS first_start, max(c.interval_end) AS last_end
    FROM consumption AS c
    LEFT JOIN meter_points AS m USING (meter_point)
    WHERE c.interval_start >= coalesce(CAST(cost_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND c.interval_start < coalesce(CAST(cost_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')
    GROUP BY c.meter_point
),
candidates AS (
    SELECT m.meter_point, t.code AS tariff_code
    FROM meters AS m, (SELECT unnest(CAST(tariff_codes AS VARCHAR[])) AS code) AS t
    UNION
    SELECT a.meter_point, a.tariff_code FROM agreements AS a JOIN meters USING (meter_point)
),
candidate_slots AS (
    -- the candidates' rates over the readings, narrowed before long rates become half-hours
    SELECT tariff_code, slot_start
    FROM rate_slots_for((SELECT list(DISTINCT tariff_code) FROM candidates),
                        (SELECT min(first_start) FROM meters), (SELECT max(last_end) FROM meters))
),
priced AS (
    SELECT c.meter_point, c.tariff_code
    FROM candidates AS c
    JOIN meters AS m USING (meter_point)
    -- only tariffs of the meter's fuel and direction (never gas at an electricity tariff)
    WHERE (tariff_direction(c.tariff_code) = 'EXPORT') = m.is_export
      AND tariff_mismatch(c.meter_point, c.tariff_code) IS NULL
      AND EXISTS (SELECT 1 FROM candidate_slots AS r
                  WHERE r.tariff_code = c.tariff_code AND r.slot_start >= m.first_start AND r.slot_start < m.last_end)
)
SELECT m.meter_point, m.is_export,
       coalesce((SELECT list(p.tariff_code ORDER BY p.tariff_code) FROM priced AS p WHERE p.meter_point = m.meter_point),
                CAST([] AS VARCHAR[])) AS tariffs
FROM meters AS m;
