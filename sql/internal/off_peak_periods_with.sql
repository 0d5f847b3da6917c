-- off_peak_periods_with(dispatch_mode): the off-peak periods of accounts on Intelligent Octopus Go
-- with the half-hours a dispatch made off-peak included (issue 28: "intelligent-adjusted" periods,
-- as the peers' off-peak sensors have them): per account, series and Europe/London local day, each
-- run of contiguous half-hours that effective_rates_with(dispatch_mode) prices at the day's
-- off-peak rate (night band or a dispatch within the daily cap). A run is cut at local midnight,
-- as in off_peak_periods (which, over the tariff's own prices, leaves dispatches out).
-- dispatch_slots: how many of the run's half-hours only a dispatch made off-peak; provisional:
-- the run rests on a plan, or completed dispatches may still change it.
-- lowest → numbered (gaps and islands) → runs → final.
CREATE OR REPLACE MACRO off_peak_periods_with(dispatch_mode) AS TABLE
WITH lowest AS (
    SELECT account_number, tariff_code, payment_method, local_date, slot_start, value_inc_vat, value_exc_vat,
           source, provisional
    FROM effective_rates_with(dispatch_mode)
    WHERE source <> 'standard'
),
numbered AS (
    SELECT *,
           epoch_us(slot_start) // 1800000000
           - row_number() OVER (PARTITION BY account_number, tariff_code, payment_method, local_date ORDER BY slot_start) AS run_key
    FROM lowest
),
runs AS (
    SELECT account_number, tariff_code, payment_method, local_date,
           min(slot_start) AS start,
           max(slot_start) + INTERVAL 30 MINUTE AS "end",
           count(*) AS slots,
           count(*) FILTER (WHERE source <> 'night_band') AS dispatch_slots,
           bool_or(provisional) AS provisional,
           any_value(value_inc_vat) AS value_inc_vat,
           any_value(value_exc_vat) AS value_exc_vat
    FROM numbered
    GROUP BY account_number, tariff_code, payment_method, local_date, run_key
)
SELECT
    -- series and local day
    tariff_code,
    payment_method,
    'standard' AS rate_type,
    local_date,
    -- the period: UTC instants, then Europe/London wall time with offset
    start,
    "end",
    london_iso(start) AS local_start,
    london_iso("end") AS local_end,
    slots,
    -- the off-peak price, p/kWh
    value_inc_vat,
    value_exc_vat,
    -- whose, how much of it dispatches made, and whether it may still change
    account_number,
    dispatch_slots,
    provisional,
    CAST(dispatch_mode AS VARCHAR) AS dispatches
FROM runs;
