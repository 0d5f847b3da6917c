-- @answers A selection of half-hours as blocks of contiguous ones, and where an instant stands among them (for cron checks).
-- @arg selection | STRUCT(payment_method VARCHAR, rate_type VARCHAR, slot_start TIMESTAMPTZ, value_inc_vat DOUBLE, value_exc_vat DOUBLE)[] |  | the chosen half-hours
-- @arg at_instant | TIMESTAMPTZ | UTC | the instant asked about (now)
-- @arg offset_minutes := 0 | INTEGER | minutes | act this long after each block starts (negative: before)
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column start | TIMESTAMPTZ | UTC | start
-- @column end | TIMESTAMPTZ | UTC | exclusive end
-- @column local_start | VARCHAR |  | start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column local_end | VARCHAR |  | end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column act_start | TIMESTAMPTZ | UTC | the block's start moved by offset_minutes: when to act on it
-- @column act_end | TIMESTAMPTZ | UTC | the block's end moved by offset_minutes: when to stop acting on it
-- @column slots | INTEGER | half-hours | in the block
-- @column state | VARCHAR |  | past, current, next or later
-- @column mean_inc_vat | DOUBLE | p/kWh | mean price inc VAT
-- @column min_inc_vat | DOUBLE | p/kWh | lowest price inc VAT
-- @column max_inc_vat | DOUBLE | p/kWh | highest price inc VAT
-- @column mean_exc_vat | DOUBLE | p/kWh | mean price exc VAT
-- @column selected_slots | INTEGER | half-hours | in the whole selection
-- @column selected_mean_inc_vat | DOUBLE | p/kWh | mean price of the whole selection
-- @column selected_min_inc_vat | DOUBLE | p/kWh | lowest price of the whole selection
-- @column selected_max_inc_vat | DOUBLE | p/kWh | highest price of the whole selection
-- @example SELECT * FROM selection_blocks((SELECT list({payment_method: payment_method, rate_type: rate_type, slot_start: start, value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat}) FROM cheapest_slots('E-1R-AGILE-18-02-21-J', 6, TIMESTAMPTZ '2024-03-31 00:00:00Z', TIMESTAMPTZ '2024-04-01 00:00:00Z')), TIMESTAMPTZ '2024-03-31 03:10:00+01')
--
-- selection_blocks: the blocks of a selection of half-hours and where an instant stands among
-- them, as a target-rate sensor answers it: is a block active, which one, and which is next.
-- selection: a list of {payment_method, rate_type, slot_start, value_inc_vat, value_exc_vat}, e.g.
-- (SELECT list({payment_method: payment_method, rate_type: rate_type, slot_start: start,
--  value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat}) FROM cheapest_slots(…)).
-- A block is a run of contiguous selected half-hours of one series (runs on both sides of local
-- midnight are one block); offset_minutes moves each to act on it (-60: an hour before).
-- state: 'current' when act_start <= at_instant < act_end; 'next' for the series' first block
-- whose act_start is after at_instant; 'past' and 'later' for the others. Also the selection's
-- mean, min and max inc VAT per series (the same on each row).
CREATE OR REPLACE MACRO selection_blocks(selection, at_instant, offset_minutes := 0) AS TABLE
WITH source AS (
    SELECT s.payment_method, s.rate_type, s.slot_start, s.value_inc_vat, s.value_exc_vat
    FROM (SELECT unnest(CAST(selection AS STRUCT(payment_method VARCHAR, rate_type VARCHAR, slot_start TIMESTAMPTZ,
                                                 value_inc_vat DOUBLE, value_exc_vat DOUBLE)[])) AS s)
),
numbered AS (
    SELECT *,
           epoch_us(slot_start) // 1800000000
           - row_number() OVER (PARTITION BY payment_method, rate_type ORDER BY slot_start) AS run_key
    FROM source
),
blocks AS (
    SELECT payment_method, rate_type,
           min(slot_start) AS start,
           count(*) AS slots,
           avg(value_inc_vat) AS mean_inc_vat,
           min(value_inc_vat) AS min_inc_vat,
           max(value_inc_vat) AS max_inc_vat,
           avg(value_exc_vat) AS mean_exc_vat,
           sum(count(*)) OVER (PARTITION BY payment_method, rate_type) AS selected_slots,
           sum(sum(value_inc_vat)) OVER (PARTITION BY payment_method, rate_type) AS selected_sum_inc,
           min(min(value_inc_vat)) OVER (PARTITION BY payment_method, rate_type) AS selected_min_inc_vat,
           max(max(value_inc_vat)) OVER (PARTITION BY payment_method, rate_type) AS selected_max_inc_vat
    FROM numbered
    GROUP BY payment_method, rate_type, run_key
),
placed AS (
    -- instants as epoch microseconds: the same in any session time zone
    SELECT *,
           start + slots * INTERVAL 30 MINUTE AS "end",
           start + CAST(offset_minutes AS BIGINT) * INTERVAL 1 MINUTE AS act_start,
           start + slots * INTERVAL 30 MINUTE + CAST(offset_minutes AS BIGINT) * INTERVAL 1 MINUTE AS act_end
    FROM blocks
),
marked AS (
    SELECT *,
           min(CASE WHEN epoch_us(act_start) > epoch_us(CAST(at_instant AS TIMESTAMPTZ)) THEN act_start END)
               OVER (PARTITION BY payment_method, rate_type) AS next_act_start
    FROM placed
)
SELECT
    -- series
    payment_method,
    rate_type,
    -- the block: UTC instants, Europe/London wall time with offset, and when to act on it
    start,
    "end",
    london_iso(start) AS local_start,
    london_iso("end") AS local_end,
    act_start,
    act_end,
    CAST(slots AS INTEGER) AS slots,
    -- where at_instant stands: past, current, next or later
    CASE WHEN epoch_us(act_start) <= epoch_us(CAST(at_instant AS TIMESTAMPTZ))
              AND epoch_us(CAST(at_instant AS TIMESTAMPTZ)) < epoch_us(act_end) THEN 'current'
         WHEN act_start = next_act_start THEN 'next'
         WHEN epoch_us(act_end) <= epoch_us(CAST(at_instant AS TIMESTAMPTZ)) THEN 'past'
         ELSE 'later' END AS state,
    -- prices of the block, p/kWh
    mean_inc_vat,
    min_inc_vat,
    max_inc_vat,
    mean_exc_vat,
    -- the whole selection of the series
    CAST(selected_slots AS INTEGER) AS selected_slots,
    selected_sum_inc / selected_slots AS selected_mean_inc_vat,
    selected_min_inc_vat,
    selected_max_inc_vat
FROM marked
ORDER BY payment_method NULLS FIRST, rate_type, start;
