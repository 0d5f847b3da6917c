-- @answers The price each half-hour of an Intelligent Octopus Go agreement is billed at, with the dispatches dispatch_mode counts.
-- @arg dispatch_mode | VARCHAR |  | 'default', 'completed' or 'planned'
-- @arg meter := NULL | VARCHAR |  | 'MPAN' (every serial summed) or 'MPAN:SERIAL'
-- @column account_number | VARCHAR |  | the account (null: the meter is known only from an imported file)
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column slot_start | TIMESTAMPTZ | UTC | the half-hour's start
-- @column slot_end | TIMESTAMPTZ | UTC | the half-hour's end
-- @column local_date | DATE |  | Europe/London local date
-- @column local_start | TIMESTAMP |  | start as Europe/London wall time (naive)
-- @column settlement_period | SMALLINT |  | 1..46/48/50: the half-hour's number in its local day
-- @column value_inc_vat | DOUBLE | p/kWh | price inc VAT
-- @column value_exc_vat | DOUBLE | p/kWh | price exc VAT
-- @column source | VARCHAR |  | night_band, completed_dispatch, planned_dispatch or standard
-- @column provisional | BOOLEAN |  | rests on a plan of dispatches that may change
-- @column standard_inc_vat | DOUBLE | p/kWh | the price without dispatches
-- @column dispatched | BOOLEAN |  | a dispatch touched the half-hour
-- @column capped | BOOLEAN |  | a dispatched half-hour past the 6 hours a day priced at the off-peak rate
-- @column dispatches | VARCHAR |  | which dispatches counted (default, completed, planned)
-- @example SELECT * FROM effective_rates_with('completed')
--
-- effective_rates_with(dispatch_mode, meter := NULL): per half-hour of an account's Intelligent
-- Octopus Go agreement (a tariff with a night band, or an INTELLI product code), the unit price once
-- dispatches are counted, and why. The view effective_rates is this with 'default'.
-- dispatch_mode: 'default', 'completed', 'planned' or 'none'; meter: 'MPAN' (or 'MPAN:SERIAL')
-- keeps that meter point's rows only. The billing rules and their sources:
-- docs/decisions/intelligent-octopus-go-billing.md. source: night_band, completed_dispatch,
-- planned_dispatch or standard; provisional: the price rests on a plan or may still change.
-- Same rows in any session TimeZone: half-hours are keyed by epoch microseconds // 30 min; wall
-- time comes from london_local's fields stored in rate_slots.
-- iog → iog_codes (the tariffs whose rates are expanded) → slots → day_low → known → spans →
-- dispatched (half-hours touched) → flagged → counted (the cap) → final.
CREATE OR REPLACE MACRO effective_rates_with(dispatch_mode, meter := NULL) AS TABLE
WITH iog AS (
    SELECT tariff_code, night_start_minutes AS night_start, night_end_minutes AS night_end
    FROM tariffs
    WHERE (night_start_minutes IS NOT NULL OR tariff_code ILIKE '%-INTELLI-%')
      AND CASE WHEN dispatch_mode IN ('default', 'completed', 'planned', 'none') THEN true
               ELSE error('effective_rates_with: dispatch_mode must be default, completed, planned or none, got '
                          || coalesce(CAST(dispatch_mode AS VARCHAR), 'NULL')) END
),
iog_codes AS (
    -- the rates of these tariffs alone (of the meter's agreements, when one meter is asked for):
    -- rate_slots_for narrows the long rates before expanding them, so a meter without such an
    -- agreement expands none (a CTE: rate_slots_for names its list four times, each a copy)
    SELECT coalesce(list(DISTINCT g.tariff_code), CAST([] AS VARCHAR[])) AS tariff_codes
    FROM iog AS g JOIN agreements AS ga ON ga.tariff_code = g.tariff_code
    WHERE meter IS NULL OR ga.meter_point = split_part(CAST(meter AS VARCHAR), ':', 1)
),
slots AS (
    SELECT coalesce(a.account_number, m.account_number) AS account_number, a.meter_point,
           r.tariff_code, r.payment_method, r.slot_start, r.slot_end, r.local_date, r.local_start,
           r.settlement_period, r.value_inc_vat, r.value_exc_vat,
           epoch_us(r.slot_start) // 1800000000 AS hh,
           i.night_start, i.night_end
    FROM agreements AS a
    JOIN meter_points AS m ON m.meter_point = a.meter_point AND m.fuel = 'electricity' AND NOT m.is_export
    JOIN iog AS i ON i.tariff_code = a.tariff_code
    JOIN rate_slots_for((SELECT tariff_codes FROM iog_codes), NULL, NULL) AS r
      ON r.tariff_code = a.tariff_code AND r.rate_type = 'standard'
     AND r.slot_start >= a.valid_from AND r.slot_start < coalesce(a.valid_to, TIMESTAMPTZ 'infinity')
    WHERE coalesce(a.account_number, m.account_number) IS NOT NULL
      AND (meter IS NULL OR a.meter_point = split_part(CAST(meter AS VARCHAR), ':', 1))
),
day_low AS (
    -- the off-peak price: the lowest of the series' Europe/London day (computed over these rows
    -- alone, so that a meter without such an agreement costs no scan of the rates)
    SELECT *,
           min(value_inc_vat) OVER same_day AS low_inc,
           arg_min(value_exc_vat, value_inc_vat) OVER same_day AS low_exc
    FROM slots
    WINDOW same_day AS (PARTITION BY account_number, meter_point, tariff_code, payment_method, local_date)
),
known AS (
    -- completed dispatches speak for the half-hours ending up to the latest successful fetch
    SELECT account_number, max(fetched_at) AS known_until
    FROM dispatch_fetches
    WHERE kind = 'completed' AND outcome = 'ok'
    GROUP BY account_number
),
spans AS (
    SELECT kind, account_number,
           epoch_us(start_at) // 1800000000 AS first_hh,
           (epoch_us(end_at) + 1799999999) // 1800000000 AS end_hh
    FROM dispatches
    WHERE (kind = 'completed' AND dispatch_mode IN ('default', 'completed')
           AND (location IS NULL OR upper(location) = 'AT_HOME'))
       OR (kind = 'planned' AND dispatch_mode IN ('default', 'planned')
           AND superseded_at IS NULL AND coalesce(upper(dispatch_type), 'SMART') <> 'BOOST')
),
dispatched AS (
    SELECT account_number, hh,
           bool_or(kind = 'completed') AS by_completed,
           bool_or(kind = 'planned') AS by_planned
    FROM (SELECT kind, account_number, unnest(range(first_hh, end_hh)) AS hh FROM spans)
    GROUP BY account_number, hh
),
flagged AS (
    SELECT s.*, k.known_until,
           CASE WHEN s.night_start IS NULL THEN s.value_inc_vat = s.low_inc
                WHEN s.night_start < s.night_end
                THEN hour(s.local_start) * 60 + minute(s.local_start) >= s.night_start
                     AND hour(s.local_start) * 60 + minute(s.local_start) < s.night_end
                ELSE hour(s.local_start) * 60 + minute(s.local_start) >= s.night_start
                     OR hour(s.local_start) * 60 + minute(s.local_start) < s.night_end END AS in_band,
           coalesce(x.by_completed, false) AS by_completed,
           -- the plan counts where completed dispatches cannot speak yet ('default')
           coalesce(x.by_planned, false)
             AND (dispatch_mode = 'planned' OR k.known_until IS NULL
                  OR epoch_us(s.slot_end) > epoch_us(k.known_until)) AS by_planned
    FROM day_low AS s
    LEFT JOIN known AS k ON k.account_number = s.account_number
    LEFT JOIN dispatched AS x ON x.account_number = s.account_number AND x.hh = s.hh
),
counted AS (
    SELECT *,
           by_completed OR by_planned AS is_dispatched,
           sum(CASE WHEN by_completed OR by_planned THEN 1 ELSE 0 END)
               OVER (PARTITION BY account_number, meter_point, tariff_code, payment_method, local_date
                     ORDER BY slot_start ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS dispatched_so_far
    FROM flagged
),
final AS (
    SELECT *,
           value_inc_vat AS standard_inc_vat,
           CASE WHEN in_band THEN 'night_band'
                WHEN is_dispatched AND dispatched_so_far <= 12 AND by_completed THEN 'completed_dispatch'
                WHEN is_dispatched AND dispatched_so_far <= 12 THEN 'planned_dispatch'
                ELSE 'standard' END AS source
    FROM counted
)
SELECT
    -- who and which series
    account_number,
    meter_point,
    tariff_code,
    payment_method,
    -- the half-hour: UTC, then Europe/London
    slot_start,
    slot_end,
    local_date,
    local_start,
    settlement_period,
    -- the price that applies, p/kWh, and why
    CASE WHEN source IN ('completed_dispatch', 'planned_dispatch') THEN low_inc ELSE value_inc_vat END AS value_inc_vat,
    CASE WHEN source IN ('completed_dispatch', 'planned_dispatch') THEN low_exc ELSE value_exc_vat END AS value_exc_vat,
    source,
    source = 'planned_dispatch'
      OR (dispatch_mode IN ('default', 'completed')
          AND (known_until IS NULL OR epoch_us(slot_end) > epoch_us(known_until) - 172800000000)) AS provisional,
    -- the tariff's own price, whether a dispatch touched the half-hour, and whether the cap refused it
    standard_inc_vat,
    is_dispatched AS dispatched,
    is_dispatched AND NOT in_band AND dispatched_so_far > 12 AS capped,
    CAST(dispatch_mode AS VARCHAR) AS dispatches
FROM final;
