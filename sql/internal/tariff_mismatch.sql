-- tariff_mismatch(meter, tariff): NULL when the tariff can price the meter (same fuel, and an
-- export tariff for an export meter, an import tariff otherwise), else why not, naming both:
-- 'meter 3000000001 is a gas import meter; tariff E-1R-AGILE-18-02-21-J is an electricity import
-- tariff'. meter is 'MPAN' or 'MPAN:SERIAL'; a meter point not in meter_points is not judged (NULL).
-- consumption_pricing refuses a compared tariff for which this is not NULL. (The aliases are
-- unusual so that the caller's arguments, substituted into the body, cannot name them. The
-- tariff's fuel and direction are looked up once each: every use of a macro is planned anew.)
CREATE OR REPLACE MACRO tariff_mismatch(meter, tariff) AS (
    (SELECT CASE WHEN tm_mp.fuel <> tm_t.fuel
                   OR (CASE WHEN tm_mp.is_export THEN 'EXPORT' ELSE 'IMPORT' END) <> tm_t.direction
                 THEN 'meter ' || tm_mp.meter_point || ' is ' || CASE WHEN tm_mp.fuel = 'electricity' THEN 'an ' ELSE 'a ' END
                      || tm_mp.fuel || ' ' || CASE WHEN tm_mp.is_export THEN 'export' ELSE 'import' END
                      || ' meter; tariff ' || tariff || ' is ' || CASE WHEN tm_t.fuel = 'electricity' THEN 'an ' ELSE 'a ' END
                      || coalesce(tm_t.fuel, 'unknown-fuel') || ' ' || lower(tm_t.direction) || ' tariff' END
     FROM meter_points AS tm_mp,
          (SELECT tariff_fuel(tariff) AS fuel, tariff_direction(tariff) AS direction) AS tm_t
     WHERE tm_mp.meter_point = split_part(meter, ':', 1))
);
