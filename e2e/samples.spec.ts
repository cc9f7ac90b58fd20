/** The bundled samples load with the row counts of their source files, and answer like native DuckDB. */
import { expect, sharedApp, test, type SampleName } from './support/fixtures';
import { expectSameRows } from './support/compare';
import { columnsText, rowsText } from './support/names';
import { nativeQuery, read } from './support/native';
import { vega } from './support/paths';

interface Sample {
  button: SampleName;
  table: string;
  source: string;
  /** The count the brief names; the test also checks it against the file itself. */
  knownRows: number;
  aggregate: string;
}

const SAMPLES: Sample[] = [
  {
    button: 'penguins',
    table: 'penguins',
    source: read.json(vega('penguins.json')),
    knownRows: 344,
    aggregate: 'SELECT "Species", count(*) AS n, round(avg("Body Mass (g)"), 3) AS mass FROM penguins GROUP BY 1 ORDER BY 1',
  },
  {
    button: 'seattle_weather',
    table: 'seattle_weather',
    source: read.csv(vega('seattle-weather.csv')),
    knownRows: 1461,
    aggregate: 'SELECT weather, count(*) AS n, round(avg(temp_max), 3) AS t, round(sum(precipitation), 2) AS p FROM seattle_weather GROUP BY 1 ORDER BY 1',
  },
  {
    button: 'cars',
    table: 'cars',
    source: read.json(vega('cars.json')),
    knownRows: 406,
    aggregate: 'SELECT "Origin", count(*) AS n, round(avg("Horsepower"), 3) AS hp, max("Cylinders") AS cyl FROM cars GROUP BY 1 ORDER BY 1',
  },
];

test.describe('samples', () => {
  const shared = sharedApp();
  for (const s of SAMPLES) {
    test(`sample ${s.table} loads with the file's row count and matches native DuckDB`, async () => {
      const app = shared();
      const views = { [s.table]: s.source };
      const native = await nativeQuery(`SELECT count(*) FROM ${s.table}`, views);
      const fileRows = Number(native.rows[0]?.[0]);
      expect(fileRows).toBe(s.knownRows);
      const cols = (await nativeQuery(`DESCRIBE ${s.table}`, views)).rows.length;

      await app.loadSample(s.button);
      await expect(app.datasetItem(s.table)).toContainText(rowsText(fileRows));
      await expect(app.datasetItem(s.table)).toContainText(columnsText(cols));

      expect(await app.scalar(`SELECT count(*) FROM ${s.table}`)).toBe(String(fileRows));
      const page = await app.runSql(s.aggregate);
      const expected = await nativeQuery(s.aggregate, views);
      expectSameRows(page.rows, expected.rows);
    });
  }
});
