/**
 * Test-only: DuckDB's own dialect as an analyst writes it (issue #31). Lateral table functions
 * over a column (`FROM t, unnest(t.list)`, `LEFT JOIN unnest(…) ON TRUE`, `generate_series(1, t.n)`
 * per row: DuckDB plans them as INOUT_FUNCTION), lists, structs, maps, PIVOT, QUALIFY, ASOF joins
 * and recursive CTEs `USING KEY` — every one must pass the model-SQL guard. Then the forms that
 * must still be refused: file and URL readers however they are called, and a user's own table
 * that shares a dataset's name (`priv.penguins`), reached by every spelling we found.
 */

/** `penguins`, `trips` and `prices` are datasets; `priv.penguins` and `notes` are the user's own. */
export const DIALECT_SETUP = [
  `CREATE TABLE penguins AS SELECT * FROM (VALUES
    ('Adelie', 'Torgersen', 39.1, 3750, ['a', 'b'], {'x': 1, 'y': 'p'}, 3),
    ('Gentoo', 'Biscoe', 46.1, 4500, ['c'], {'x': 2, 'y': 'q'}, 1),
    ('Chinstrap', 'Dream', 49.0, NULL, [], {'x': 3, 'y': NULL}, 2))
    t(species, island, bill_length_mm, body_mass_g, tags, info, n)`,
  `CREATE TABLE trips AS SELECT i AS id, TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i * 7) MINUTE AS ts, 'AB'[1 + i % 2] AS sym,
    [i, i + 1, i + 2] AS stops, MAP {'k': i} AS m FROM range(20) r(i)`,
  `CREATE TABLE prices AS SELECT TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i * 10) MINUTE AS ts, 'AB'[1 + i % 2] AS sym, i * 1.5 AS price FROM range(20) r(i)`,
  `CREATE TABLE edges AS SELECT * FROM (VALUES (1, 2), (2, 3), (3, 4), (1, 3)) e(src, dst)`,
  'CREATE SCHEMA priv',
  `CREATE TABLE priv.penguins AS SELECT 'secret-species' AS species, 'secret-island' AS island, 1.0 AS bill_length_mm, 1 AS body_mass_g,
    ['s'] AS tags, {'x': 9, 'y': 'z'} AS info, 1 AS n`,
  "CREATE TABLE notes AS SELECT 'private' AS body",
];

export const DIALECT_DATASETS = ['penguins', 'trips', 'prices', 'edges'];

export const DIALECT_ACCEPTED = [
  // Lateral table functions over a column.
  'SELECT species, tag FROM penguins, unnest(penguins.tags) AS u(tag)',
  'SELECT species, u.tag FROM penguins LEFT JOIN unnest(tags) AS u(tag) ON TRUE',
  'SELECT p.species, u.* FROM penguins p CROSS JOIN LATERAL unnest(p.tags) AS u(tag)',
  'SELECT species, g FROM penguins, generate_series(1, penguins.n) AS s(g)',
  'SELECT species, r FROM penguins, range(n) AS s(r) ORDER BY species, r',
  'SELECT id, s FROM trips, unnest(stops) AS t(s) WHERE s % 2 = 0',
  'SELECT id, x FROM trips, unnest(list_transform(stops, v -> v * 10)) AS t(x)',
  'SELECT species, unnest(tags) AS tag FROM penguins',
  'SELECT unnest(info) FROM penguins',
  'SELECT unnest([[1, 2], [3]], recursive := true) AS v',
  "SELECT species, g FROM penguins, generate_series(DATE '2024-01-01', DATE '2024-01-01' + INTERVAL (n) DAY, INTERVAL 1 DAY) AS s(g)",
  // Lists, structs, maps.
  'SELECT species, len(tags) AS n_tags, list_contains(tags, \'a\') AS has_a, list_sort(tags) AS sorted FROM penguins',
  'SELECT list_filter(stops, v -> v > 5) AS big, list_reduce(stops, (a, b) -> a + b) AS total, stops[1] AS first, stops[-1] AS last FROM trips',
  'SELECT [x * 2 FOR x IN stops IF x % 2 = 1] AS odd_doubled FROM trips',
  'SELECT info.x, info[\'y\'] AS y, struct_pack(s := species, m := body_mass_g) AS packed FROM penguins',
  'SELECT species, {\'mass\': body_mass_g, \'bill\': bill_length_mm} AS measures FROM penguins',
  "SELECT m['k'] AS k, map_keys(m) AS keys, cardinality(m) AS c FROM trips",
  'SELECT list(species ORDER BY species) AS all_species, array_agg(DISTINCT island) AS islands FROM penguins',
  'SELECT species, COLUMNS(\'.*_mm\') FROM penguins',
  // PIVOT, QUALIFY, ASOF, windows.
  'PIVOT penguins ON island USING count(*)',
  'SELECT * FROM (PIVOT (SELECT id % 3 AS g, sym FROM trips) ON sym USING count(*) GROUP BY g)',
  'UNPIVOT penguins ON bill_length_mm, n INTO NAME measure VALUE v',
  'SELECT sym, ts, row_number() OVER (PARTITION BY sym ORDER BY ts DESC) AS rk FROM trips QUALIFY rk = 1',
  'SELECT t.id, t.ts, p.price FROM trips t ASOF JOIN prices p ON t.sym = p.sym AND t.ts >= p.ts',
  'SELECT t.id, p.price FROM trips t ASOF LEFT JOIN prices p USING (sym, ts)',
  'SELECT * FROM trips POSITIONAL JOIN prices',
  'SELECT sym, max_by(price, ts) AS last_price, arg_min(price, ts) AS first_price FROM prices GROUP BY ALL',
  // Recursive CTEs, plain and USING KEY.
  'WITH RECURSIVE reach(node, depth) AS (SELECT 1, 0 UNION SELECT e.dst, r.depth + 1 FROM reach r JOIN edges e ON e.src = r.node WHERE r.depth < 5) SELECT * FROM reach',
  'WITH RECURSIVE dist(node, d) USING KEY (node) AS (SELECT 1, 0 UNION SELECT e.dst, min(r.d + 1) FROM dist r JOIN edges e ON e.src = r.node GROUP BY e.dst) SELECT * FROM dist ORDER BY node',
  'WITH RECURSIVE dist(node, d) USING KEY (node) AS (SELECT 1, 0 UNION SELECT e.dst, r.d + 1 FROM dist r JOIN edges e ON e.src = r.node LEFT JOIN recurring.dist k ON k.node = e.dst WHERE k.node IS NULL OR k.d > r.d + 1) SELECT * FROM dist',
  // The dataset by its full name.
  'SELECT count(*) FROM memory.main.penguins',
  'SELECT count(*) FROM main.penguins',
];

/** Must be refused: each reads outside the datasets or changes something. */
export const DIALECT_REFUSED = [
  // A user's own table sharing a dataset's name, by every spelling.
  'SELECT * FROM priv.penguins',
  'SELECT * FROM memory.priv.penguins',
  'SELECT * FROM "priv"."penguins"',
  'SELECT * FROM PRIV.PENGUINS',
  'SELECT * FROM priv/**/./**/penguins',
  'SELECT p.species FROM penguins p JOIN priv.penguins q USING (species)',
  'WITH penguins AS (SELECT * FROM priv.penguins) SELECT * FROM penguins',
  'SELECT species, tag FROM priv.penguins, unnest(tags) AS u(tag)',
  'SELECT * FROM penguins, unnest((SELECT list(species) FROM priv.penguins)) AS u(s)',
  "SELECT * FROM query_table('priv.penguins')",
  "SELECT * FROM query('SELECT * FROM priv.penguins')",
  'SUMMARIZE priv.penguins',
  // Readers, lateral or not; non-dataset tables.
  "SELECT * FROM penguins, read_text(penguins.species || '.txt')",
  "SELECT * FROM read_csv('https://example.com/x.csv')",
  "SELECT * FROM glob('*')",
  'SELECT * FROM notes',
  'SELECT * FROM penguins, unnest((SELECT list(body) FROM notes)) AS u(b)',
  'WITH RECURSIVE r(k, v) USING KEY (k) AS (SELECT 1, body FROM notes UNION SELECT k + 1, v FROM r WHERE k < 2) SELECT * FROM r',
];
