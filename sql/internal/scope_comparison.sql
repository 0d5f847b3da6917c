-- scope_comparison(meter_scope, scenarios, meters, cost_from, cost_to, payment): the rows of
-- portfolio_comparison (per meter and scenario, with
-- difference_gbp against 'actual') for the meters of meter_scope (list(cost_meters row):
-- STRUCT(meter_point, is_export, tariffs)[]), each kept at 'actual' and at its own tariffs only;
-- scenarios (VARCHAR[]) and meters (VARCHAR[]) are the union of the scope's tariffs (with 'actual'
-- first for the monthly costs) and its meter points, as portfolio_comparison takes them: every meter
-- in one call. Over [cost_from, cost_to) (TIMESTAMPTZ; NULL: open), with payment's standing charges
-- (DIRECT_DEBIT or NON_DIRECT_DEBIT); mismatching tariffs are skipped. Columns: portfolio_comparison's.
CREATE OR REPLACE MACRO scope_comparison(meter_scope, scenarios, meters, cost_from, cost_to, payment) AS TABLE
WITH scope AS (
    SELECT unnest(CAST(meter_scope AS STRUCT(meter_point VARCHAR, is_export BOOLEAN, tariffs VARCHAR[])[])) AS m
)
SELECT c.*
FROM portfolio_comparison(scenarios, cost_from, cost_to, meters := meters, payment := payment, mismatches := 'skip') AS c
JOIN scope ON scope.m.meter_point = c.meter_point
WHERE c.scenario = 'actual' OR list_contains(scope.m.tariffs, c.scenario);
