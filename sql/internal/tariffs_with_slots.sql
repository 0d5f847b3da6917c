-- tariffs_with_slots(range_from, range_to): the tariffs with at least one half-hour of rate_slots
-- starting in [range_from, range_to) (TIMESTAMPTZ). Column: tariff_code. `tariffs status` counts
-- gaps_7d only for these (a tariff with nothing stored in its window shows none). Asked of
-- rate_slots_for, which narrows the long rates to the range before expanding them (rate_slots
-- filtered afterwards expands every open-ended rate from its start).
CREATE OR REPLACE MACRO tariffs_with_slots(range_from, range_to) AS TABLE
SELECT DISTINCT tariff_code
FROM rate_slots_for(NULL, CAST(range_from AS TIMESTAMPTZ), CAST(range_to AS TIMESTAMPTZ));
