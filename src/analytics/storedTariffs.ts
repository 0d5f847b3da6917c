// The tariffs stored in the warehouse with their rate coverage: the listing of `tariffs tariffs`.

export const STORED_TARIFFS_SQL = `
    SELECT t.tariff_code, t.product_code, t.fuel, t.register, t.region,
           count(u.valid_from) AS unit_rates, min(u.valid_from) AS first_valid_from, max(u.valid_from) AS last_valid_from
    FROM tariffs AS t LEFT JOIN unit_rates AS u USING (tariff_code)
    GROUP BY ALL ORDER BY t.tariff_code`;
