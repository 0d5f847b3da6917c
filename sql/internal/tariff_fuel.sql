-- tariff_fuel(tariff): 'electricity' or 'gas', the stored tariff's fuel, else its code's first
-- letter (E-… electricity, G-… gas); NULL for a code that is neither.
CREATE OR REPLACE MACRO tariff_fuel(tariff) AS (
    coalesce((SELECT any_value(tf_t.fuel) FROM tariffs AS tf_t WHERE tf_t.tariff_code = tariff),
             CASE WHEN tariff LIKE 'E-%' THEN 'electricity' WHEN tariff LIKE 'G-%' THEN 'gas' END)
);
