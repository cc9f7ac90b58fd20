// The load report's fixture cases: each CSV, the finding the report must make, and the fix it
// must offer (the read_csv options native DuckDB is given to read the file right). Written into
// e2e/fixtures/bad/ by make-bad-fixtures.mjs; the unit tests (workers/data/loadReport.test.ts)
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
