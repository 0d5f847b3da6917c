-- tariff_direction(tariff): 'IMPORT' or 'EXPORT', the direction of the tariff's product when the
-- product is stored, else EXPORT for a code naming OUTGOING or EXPORT (Agile Outgoing, Outgoing
-- Fixed, …) and IMPORT otherwise.
CREATE OR REPLACE MACRO tariff_direction(tariff) AS (
    coalesce((SELECT any_value(upper(td_p.direction))
              FROM tariffs AS td_t JOIN products AS td_p ON td_p.code = td_t.product_code
              WHERE td_t.tariff_code = tariff AND upper(td_p.direction) IN ('IMPORT', 'EXPORT')),
             CASE WHEN tariff LIKE '%OUTGOING%' OR tariff LIKE '%EXPORT%' THEN 'EXPORT' ELSE 'IMPORT' END)
);
