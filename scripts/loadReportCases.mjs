// The load report's fixture cases: each CSV, the finding the report must make, and the fix it
// must offer (the read_csv options native DuckDB is given to read the file right). Written into
// e2e/fixtures/bad/ by make-bad-fixtures.mjs; the unit tests (workers/data/checks/loadReport.test.ts)
// and e2e/load-report.spec.ts read the same list.

/**
 * @typedef {{ file: string, text: string, kind: string | null, columns: string[], fix: Record<string, unknown> | null, fixedTypes?: Record<string, string> }} LoadReportCase
 */

/** @type {LoadReportCase[]} */
export const LOAD_REPORT_CASES = [
  {
    file: 'report-placeholders.csv',
    text: 'id,price,city\n1,10.5,Oslo\n2,null,Lima\n3,N/A,Perth\n4,-,Quito\n5,MISSING,Accra\n6,.,Hanoi\n7,3,Lyon\n8,7.25,Turin\n9,12,Cork\n10,N/A,Bern\n',
    kind: 'placeholders',
    columns: ['price'],
    fix: { nullstr: ['', 'N/A', '-', '.', 'MISSING', 'null'] },
    fixedTypes: { price: 'DOUBLE' },
  },
  {
    file: 'report-title-line.csv',
    text: 'Quarterly sales report (exported 2024-05-01)\nid,region,amount\n1,north,10.5\n2,south,20\n3,east,30.25\n4,west,41\n',
    kind: 'title_line',
    columns: [],
    fix: { skip: 1, header: true },
    fixedTypes: { id: 'BIGINT', amount: 'DOUBLE' },
  },
  {
    // Title and source lines above the header, then "[x]" and "[c]" (ONS) in two columns: the
    // report's "Apply all" reads once with the skip and both missing strings.
    file: 'report-apply-all.csv',
    text: 'Table 1: Units sold by region\nSource: company records\nregion,units,price\nnorth,10,2.5\nsouth,[x],3\neast,12,[c]\nwest,14,4.25\nmid,9,1.75\n',
    kind: 'title_line',
    columns: [],
    fix: { skip: 2, header: true },
    fixedTypes: { region: 'VARCHAR' },
  },
  {
    file: 'report-dates.csv',
    text: 'id,Start Date,End Date\n1,07/01/2010,07/05/2010\n2,08/02/2010,08/31/2010\n3,09/03/2010,09/10/2010\n4,10/04/2010,10/12/2010\n',
    kind: 'unparsed_dates',
    columns: ['End Date'],
    fix: { dateformat: '%m/%d/%Y' },
    fixedTypes: { 'Start Date': 'DATE', 'End Date': 'DATE' },
  },
  {
    file: 'report-ambiguous-dates.csv',
    text: 'id,day,amount\n1,01/02/2021,5\n2,03/04/2021,6\n3,05/06/2021,7\n4,11/12/2021,8\n',
    kind: 'ambiguous_dates',
    columns: ['day'],
    fix: { dateformat: '%m/%d/%Y' },
    fixedTypes: { day: 'DATE' },
  },
  {
    file: 'report-decimal-comma.csv',
    text: 'id;price;name\n1;10,5;a\n2;3,25;b\n3;7;c\n4;0,125;d\n',
    kind: 'decimal_comma',
    columns: ['price'],
    fix: { decimal_separator: ',' },
    fixedTypes: { price: 'DOUBLE' },
  },
  {
    file: 'report-thousands.csv',
    text: 'id,population\n1,"1,234"\n2,"12,345,678"\n3,15\n4,"709,037"\n',
    kind: 'thousands',
    columns: ['population'],
    fix: { thousands: ',' },
    fixedTypes: { population: 'BIGINT' },
  },
  {
    file: 'report-mixed.csv',
    text: 'id,score\n1,10\n2,12\n3,see notes\n4,13\n5,15\n6,9\n',
    kind: 'mixed_types',
    columns: ['score'],
    fix: { nullstr: ['', 'see notes'] },
    fixedTypes: { score: 'BIGINT' },
  },
  {
    file: 'report-whitespace.csv',
    text: 'id,amount\n1,12 345\n2,1\t200\n3,15\n4,2 000\n',
    kind: 'whitespace',
    columns: ['amount'],
    fix: null,
  },
  {
    file: 'report-names.csv',
    text: 'id,value,value,,\n1,2,3,4,5\n6,7,8,9,10\n',
    kind: 'column_names',
    columns: ['column3', 'column4', 'value_1'],
    fix: null,
  },
  {
    file: 'report-clean.csv',
    text: 'id,day,amount,label\n1,2024-01-05,10.5,a\n2,2024-02-06,3,b\n3,2024-03-07,7.75,c\n',
    kind: null,
    columns: [],
    fix: null,
  },
];

/** A file with time-zone offsets (UTC `Z`, +02:00, -05:00): TIMESTAMP WITH TIME ZONE by DuckDB's sniffer. */
export const TIMEZONE_CSV = {
  file: 'tz-events.csv',
  text: 'id,event_time,kind\n1,2024-03-10T01:30:00Z,open\n2,2024-03-10T23:30:00+02:00,close\n3,2024-03-11T08:15:00-05:00,open\n4,2024-03-11T13:45:00Z,close\n',
};

// The load report's cases for the JS readers: Excel workbooks (one sheet, `rows` as cells: numbers,
// booleans, strings; `null` an empty cell) and JSON documents. `fix` is the reader options the
// fix must carry; `clean` is the same data written correctly, as JSON records: native DuckDB's
// read_json over them is what the fixed table must hold (types and values).

/**
 * @typedef {{ file: string, rows?: (string | number | boolean | Date | null)[][], json?: string, kind: string | null, columns: string[], fix: Record<string, unknown> | null, clean?: Record<string, unknown>[], alternative?: { fix: Record<string, unknown>, clean: Record<string, unknown>[] } }} TableReportCase
 */

/** @param {number} m @param {number} d @param {number} y */
const iso = (y, m, d) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const PLACEHOLDER_RATES = ['-', 'n/a', '..', 'x', '[c]', 'null', 'MISSING', '.'];

/** @type {TableReportCase[]} */
export const TABLE_REPORT_CASES = [
  {
    file: 'report-sheet-title.xlsx',
    rows: [
      ['Table 1: Population by region, 2019 to 2020 (thousands)'],
      ['Source: Office for National Statistics. Figures are rounded.'],
      [],
      ['Region', '2019', '2020'],
      ['North', 1200, 1310.5],
      ['South', 980, 1002.25],
      ['East', 1500, 1490],
      ['West', 1100, 1150.75],
    ],
    kind: 'title_line',
    columns: [],
    fix: { headerRow: 4 },
    // Key order does not matter: the tests compare column by column, by name.
    clean: [
      { Region: 'North', 2019: 1200, 2020: 1310.5 },
      { Region: 'South', 2019: 980, 2020: 1002.25 },
      { Region: 'East', 2019: 1500, 2020: 1490 },
      { Region: 'West', 2019: 1100, 2020: 1150.75 },
    ],
  },
  {
    file: 'report-sheet-notes.xlsx',
    rows: [
      ['year', 'births', 'deaths'],
      [2019, 640370, 530841],
      [2020, 613936, 607922],
      [2021, 624828, 586334],
      [],
      ['Source: civil registration.'],
      ['Figures for 2021 are provisional.'],
    ],
    kind: 'notes_below',
    columns: ['year'],
    fix: { lastRow: 4 },
    clean: [
      { year: 2019, births: 640370, deaths: 530841 },
      { year: 2020, births: 613936, deaths: 607922 },
      { year: 2021, births: 624828, deaths: 586334 },
    ],
  },
  {
    file: 'report-sheet-placeholders.xlsx',
    rows: [['area', 'rate', 'count'], ...PLACEHOLDER_RATES.map((p, i) => [`area ${i + 1}`, p, i * 10]), ['area 9', 3.5, 80], ['area 10', 4.25, 90], ['area 11', 12, 100]],
    kind: 'placeholders',
    columns: ['rate'],
    fix: { types: { rate: 'DOUBLE' }, missing: { rate: PLACEHOLDER_RATES } },
    clean: [...PLACEHOLDER_RATES.map((_, i) => ({ area: `area ${i + 1}`, rate: null, count: i * 10 })), { area: 'area 9', rate: 3.5, count: 80 }, { area: 'area 10', rate: 4.25, count: 90 }, { area: 'area 11', rate: 12, count: 100 }],
  },
  {
    file: 'report-sheet-numbers-as-text.xlsx',
    rows: [
      ['id', 'amount', 'zip'],
      [1, '12.5', '01234'],
      [2, '7', '02139'],
      [3, '1000', '10001'],
      [4, '-3.75', '94105'],
    ],
    kind: 'numbers_as_text',
    columns: ['amount'],
    fix: { types: { amount: 'DOUBLE' } },
    clean: [
      { id: 1, amount: 12.5, zip: '01234' },
      { id: 2, amount: 7, zip: '02139' },
      { id: 3, amount: 1000, zip: '10001' },
      { id: 4, amount: -3.75, zip: '94105' },
    ],
  },
  {
    file: 'report-sheet-wide-text.xlsx',
    rows: [
      ['area', '2019', '2020', '2021'],
      ['North', '12', '13.5', '14'],
      ['South', '7', '8', '9.25'],
      ['East', '100', '101', '99'],
    ],
    kind: 'numbers_as_text',
    columns: ['2019', '2020', '2021'],
    fix: { types: { 2019: 'BIGINT', 2020: 'DOUBLE', 2021: 'DOUBLE' } },
    clean: [
      { area: 'North', 2019: 12, 2020: 13.5, 2021: 14 },
      { area: 'South', 2019: 7, 2020: 8, 2021: 9.25 },
      { area: 'East', 2019: 100, 2020: 101, 2021: 99 },
    ],
  },
  {
    file: 'report-sheet-mixed.xlsx',
    rows: [['id', 'score'], [1, 10], [2, 12], [3, 'see notes'], [4, 13], [5, 15], [6, 9]],
    kind: 'mixed_types',
    columns: ['score'],
    fix: { types: { score: 'BIGINT' }, missing: { score: ['see notes'] } },
    clean: [
      { id: 1, score: 10 },
      { id: 2, score: 12 },
      { id: 3, score: null },
      { id: 4, score: 13 },
      { id: 5, score: 15 },
      { id: 6, score: 9 },
    ],
  },
  {
    file: 'report-sheet-dates.xlsx',
    rows: [
      ['id', 'Start Date', 'End Date'],
      [1, '07/01/2010', '07/05/2010'],
      [2, '08/02/2010', '08/31/2010'],
      [3, '09/03/2010', '09/10/2010'],
      [4, '10/04/2010', '10/12/2010'],
    ],
    kind: 'unparsed_dates',
    columns: ['Start Date', 'End Date'],
    fix: { types: { 'Start Date': 'DATE', 'End Date': 'DATE' }, dateformats: { 'Start Date': '%m/%d/%Y', 'End Date': '%m/%d/%Y' } },
    clean: [
      { id: 1, 'Start Date': iso(2010, 7, 1), 'End Date': iso(2010, 7, 5) },
      { id: 2, 'Start Date': iso(2010, 8, 2), 'End Date': iso(2010, 8, 31) },
      { id: 3, 'Start Date': iso(2010, 9, 3), 'End Date': iso(2010, 9, 10) },
      { id: 4, 'Start Date': iso(2010, 10, 4), 'End Date': iso(2010, 10, 12) },
    ],
  },
  {
    file: 'report-sheet-ambiguous-dates.xlsx',
    rows: [['id', 'day', 'amount'], [1, '01.02.2021', 5], [2, '03.04.2021', 6], [3, '05.06.2021', 7], [4, '11.12.2021', 8]],
    kind: 'ambiguous_dates',
    columns: ['day'],
    fix: { types: { day: 'DATE' }, dateformats: { day: '%m.%d.%Y' } },
    clean: [
      { id: 1, day: iso(2021, 1, 2), amount: 5 },
      { id: 2, day: iso(2021, 3, 4), amount: 6 },
      { id: 3, day: iso(2021, 5, 6), amount: 7 },
      { id: 4, day: iso(2021, 11, 12), amount: 8 },
    ],
    alternative: {
      fix: { types: { day: 'DATE' }, dateformats: { day: '%d.%m.%Y' } },
      clean: [
        { id: 1, day: iso(2021, 2, 1), amount: 5 },
        { id: 2, day: iso(2021, 4, 3), amount: 6 },
        { id: 3, day: iso(2021, 6, 5), amount: 7 },
        { id: 4, day: iso(2021, 12, 11), amount: 8 },
      ],
    },
  },
  {
    file: 'report-sheet-names.xlsx',
    rows: [
      ['id', 'value', 'value', null],
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ],
    kind: 'column_names',
    columns: ['column_4', 'value_2'],
    fix: null,
  },
  {
    file: 'report-sheet-clean.xlsx',
    rows: [
      ['code', 'name', 'zip', 'amount', 'active', 'grade', 'note'],
      ['A-12', 'Oslo', '01234', 10.5, true, '-', 'first'],
      ['B-07', 'Lima', '02139', 3, false, 'B', 'n/a'],
      [],
      ['C-30', 'Perth', '60000', 7.75, true, 'A', 'Source: own survey'],
      ['D-01', 'Quito', '17001', 12, false, 'C', ''],
    ],
    kind: null,
    columns: [],
    fix: null,
  },
  {
    file: 'report-sheet-mixed-kinds.xlsx',
    rows: [
      ['id', 'when'],
      [1, new Date(Date.UTC(2024, 0, 5))],
      [2, 'TBC'],
      [3, new Date(Date.UTC(2024, 2, 7))],
    ],
    kind: 'mixed_types',
    columns: ['when'],
    fix: null,
  },
  {
    file: 'report-json-numbers.json',
    json: JSON.stringify([
      { id: 1, price: '12.50', qty: 3 },
      { id: 2, price: '7', qty: 1 },
      { id: 3, price: '1000.25', qty: 2 },
      { id: 4, price: null, qty: 5 },
    ]),
    kind: 'numbers_as_text',
    columns: ['price'],
    fix: { types: { price: 'DOUBLE' } },
    clean: [
      { id: 1, price: 12.5, qty: 3 },
      { id: 2, price: 7, qty: 1 },
      { id: 3, price: 1000.25, qty: 2 },
      { id: 4, price: null, qty: 5 },
    ],
  },
  {
    file: 'report-json-thousands.json',
    json: JSON.stringify([
      { id: 1, population: '1,234' },
      { id: 2, population: '12,345,678' },
      { id: 3, population: '15' },
      { id: 4, population: '709,037' },
    ]),
    kind: 'thousands',
    columns: ['population'],
    fix: { types: { population: 'BIGINT' }, thousandsIn: ['population'] },
    clean: [
      { id: 1, population: 1234 },
      { id: 2, population: 12345678 },
      { id: 3, population: 15 },
      { id: 4, population: 709037 },
    ],
  },
  {
    file: 'report-json-placeholders.json',
    json: JSON.stringify([
      { id: 1, price: 10.5, city: 'Oslo' },
      { id: 2, price: 'N/A', city: 'Lima' },
      { id: 3, price: '-', city: 'Perth' },
      { id: 4, price: 3, city: 'Quito' },
      { id: 5, price: 'MISSING', city: 'Accra' },
      { id: 6, price: 7.25, city: 'Hanoi' },
    ]),
    kind: 'placeholders',
    columns: ['price'],
    fix: { types: { price: 'DOUBLE' }, missing: { price: ['-', 'MISSING', 'N/A'] } },
    clean: [
      { id: 1, price: 10.5, city: 'Oslo' },
      { id: 2, price: null, city: 'Lima' },
      { id: 3, price: null, city: 'Perth' },
      { id: 4, price: 3, city: 'Quito' },
      { id: 5, price: null, city: 'Accra' },
      { id: 6, price: 7.25, city: 'Hanoi' },
    ],
  },
  {
    file: 'report-json-mixed.ndjson',
    json: [
      { id: 1, score: 10 },
      { id: 2, score: '12' },
      { id: 3, score: 'see notes' },
      { id: 4, score: 13 },
      { id: 5, score: 15 },
      { id: 6, score: 9 },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
    kind: 'mixed_types',
    columns: ['score'],
    fix: { types: { score: 'BIGINT' }, missing: { score: ['see notes'] } },
    clean: [
      { id: 1, score: 10 },
      { id: 2, score: 12 },
      { id: 3, score: null },
      { id: 4, score: 13 },
      { id: 5, score: 15 },
      { id: 6, score: 9 },
    ],
  },
  {
    file: 'report-json-dates.json',
    json: JSON.stringify([
      { id: 1, signed: '31/01/2024', due: '05/02/2024' },
      { id: 2, signed: '15/02/2024', due: '01/03/2024' },
      { id: 3, signed: '01/03/2024', due: 'n/a' },
    ]),
    kind: 'unparsed_dates',
    columns: ['signed', 'due'],
    fix: { types: { signed: 'DATE', due: 'DATE' }, dateformats: { signed: '%d/%m/%Y', due: '%d/%m/%Y' }, missing: { due: ['n/a'] } },
    clean: [
      { id: 1, signed: iso(2024, 1, 31), due: iso(2024, 2, 5) },
      { id: 2, signed: iso(2024, 2, 15), due: iso(2024, 3, 1) },
      { id: 3, signed: iso(2024, 3, 1), due: null },
    ],
  },
  {
    file: 'report-json-mixed-kinds.json',
    json: JSON.stringify([
      { id: 1, flag: true, tags: ['a'] },
      { id: 2, flag: 1, tags: 'b' },
      { id: 3, flag: false, tags: ['c', 'd'] },
    ]),
    kind: 'mixed_types',
    columns: ['flag'],
    fix: null,
  },
  {
    file: 'report-json-clean.json',
    json: JSON.stringify([
      { id: 1, zip: '01234', day: '2024-01-05', amount: 10.5, label: 'a', tags: ['x'], flag: true, grade: '-' },
      { id: 2, zip: '02139', day: '2024-02-06', amount: 3, label: 'n/a', tags: [], flag: false, grade: 'B' },
      { id: 3, zip: '10001', day: null, amount: null, label: 'c', tags: ['y', 'z'], flag: null, grade: 'A' },
    ]),
    kind: null,
    columns: [],
    fix: null,
  },
];
