-- rate_slots_for(tariff_codes, range_from, range_to): the rows of rate_slots (sql/public/rate_slots.sql
-- is this with three NULLs) of the listed tariffs, for the half-hours starting in [range_from,
-- range_to); a NULL argument does not narrow. For tariffs or a range known only as the query runs
-- (a subquery): DuckDB pushes a filter of constants on the view down below the expansion of long
-- rates, but not one holding a subquery; here the arguments narrow long_unit_rates before it.
-- Half-hourly rates (stored duration_us 1800000000) are a projection of unit_rates; longer ones
-- (long_unit_rates) are expanded to their half-hours, open-ended ones up to three days past today.
-- Four-rate EV tariffs (tariffs.night_start_minutes set): the night rate covers the half-hours whose
-- Europe/London wall-clock start lies in the night band, the day rate the others, one series
-- (rate_type standard). Any session TimeZone gives the same rows: instants are worked out as
-- instants (epoch microseconds, minute intervals), local fields by london_local.
CREATE OR REPLACE MACRO rate_slots_for(tariff_codes, range_from, range_to) AS TABLE
WITH half_hourly AS (
    SELECT tariff_code, rate_type, payment_method,
           valid_from AS slot_start,
           local_date, local_start, utc_offset_minutes, settlement_period,
           value_exc_vat, value_inc_vat
    FROM unit_rates
    WHERE duration_us = 1800000000
      AND (tariff_codes IS NULL OR list_contains(tariff_codes, tariff_code))
      AND (range_from IS NULL OR valid_from >= range_from)
      AND (range_to IS NULL OR valid_from < range_to)
),
long_rates AS (
    SELECT l.tariff_code, l.rate_type, l.payment_method, l.value_exc_vat, l.value_inc_vat,
           t.night_start_minutes AS night_start, t.night_end_minutes AS night_end,
           unnest(generate_series(
               -- from the rate's first half-hour in the range (its half-hours are valid_from + n × 30 min)
               CASE WHEN range_from IS NULL OR range_from <= l.valid_from THEN l.valid_from
                    ELSE l.valid_from + to_microseconds((epoch_us(CAST(range_from AS TIMESTAMPTZ)) - epoch_us(l.valid_from)) // 1800000000 * 1800000000) END,
               least(
                   -- the horizon: three days past today's UTC midnight, worked out on UTC wall time
                   -- (date_trunc and day intervals on a TIMESTAMPTZ follow the session's time zone)
                   coalesce(l.valid_to, greatest(l.valid_from + INTERVAL 30 MINUTE,
                                                 timezone('UTC', date_trunc('day', timezone('UTC', now())) + INTERVAL 3 DAY))) - INTERVAL 30 MINUTE,
                   -- and to the range's end: a ten-year rate priced for one year makes one year of half-hours
                   coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')),
               INTERVAL 30 MINUTE)) AS slot_start
    FROM long_unit_rates AS l
    LEFT JOIN tariffs AS t ON t.tariff_code = l.tariff_code AND t.night_start_minutes IS NOT NULL
    WHERE (tariff_codes IS NULL OR list_contains(tariff_codes, l.tariff_code))
      AND (range_to IS NULL OR l.valid_from < range_to)
      AND (range_from IS NULL OR l.valid_to IS NULL OR l.valid_to > range_from)
),
long_local AS (
    SELECT tariff_code, rate_type, payment_method, value_exc_vat, value_inc_vat, slot_start,
           london_local(slot_start) AS l,
           night_start, night_end
    FROM long_rates
    WHERE (range_from IS NULL OR slot_start >= range_from)
      AND (range_to IS NULL OR slot_start < range_to)
),
banded AS (
    -- EV tariffs: each half-hour keeps the one rate (day or night) its wall-clock time falls in
    SELECT tariff_code,
           CASE WHEN night_start IS NULL THEN rate_type ELSE 'standard' END AS rate_type,
           payment_method, value_exc_vat, value_inc_vat, slot_start, l
    FROM long_local
    WHERE night_start IS NULL
       OR rate_type NOT IN ('day', 'night')
       OR (rate_type = 'night') = CASE WHEN night_start < night_end
                                       THEN hour(l.local_start) * 60 + minute(l.local_start) >= night_start
                                            AND hour(l.local_start) * 60 + minute(l.local_start) < night_end
                                       ELSE hour(l.local_start) * 60 + minute(l.local_start) >= night_start
                                            OR hour(l.local_start) * 60 + minute(l.local_start) < night_end END
),
expanded AS (
    SELECT tariff_code, rate_type, payment_method, slot_start,
           l.local_date, l.local_start, l.utc_offset_minutes, l.settlement_period,
           value_exc_vat, value_inc_vat
    FROM banded
),
final AS (
    SELECT * FROM half_hourly
    UNION ALL
    SELECT * FROM expanded
)
SELECT
    -- identity
    tariff_code,
    -- time (UTC)
    slot_start,
    slot_start + INTERVAL 30 MINUTE AS slot_end,
    -- time (Europe/London)
    local_date,
    local_start,
    utc_offset_minutes,
    settlement_period,
    -- price
    value_exc_vat,
    value_inc_vat,
    payment_method,
    rate_type
FROM final;
