/**
 * Small CSVs written here in the shape of real public files the corpus run (manifest.json) showed
 * the load report getting wrong, one per defect, each naming the file it stands for. The real
 * files stay out of the repository (they come from stored snapshots); these keep the regressions
 * in the unit suite. `expect` is as in the manifest: `kind:col|col` with `+fix` when a re-read is
 * offered.
 */
export interface PatternCase {
  name: string;
  /** The corpus file whose shape this is. */
  like: string;
  /** What was wrong before, in a few words. */
  was: string;
  text: string | Uint8Array;
  expect: { findings: string[]; timeZones?: string[] };
}

const enc = (t: string) => new TextEncoder().encode(t);
const rows = (head: string, body: string[]) => `${head}\n${body.join('\n')}\n`;
const repeat = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

export const PATTERN_CASES: PatternCase[] = [
  {
    name: 'header-as-data.csv',
    like: 'fivethirtyeight/data cabinet-turnover/cabinet-turnover.csv',
    was: 'the header was read as data; the report named two empty headers and a mixed column instead',
    text:
      '\uFEFFpresident,position,appointee,start_date,end_date,length,departure_day,gender,,\r\n' +
      // Every column is text either way ("977 combined" lengths, "Reagan admin" dates), so the
      // sniffer cannot tell the header from data.
      repeat(40, (i) => `P${i % 5},Secretary ${i},Person ${i},${i % 13 === 5 ? 'Reagan admin' : `${(i % 12) + 1}/${(i % 27) + 1}/7${i % 10}`},${i % 17 === 2 ? 'Incumbent' : `${(i % 12) + 1}/${(i % 27) + 2}/8${i % 10}`},${i % 11 === 3 ? `${900 + i} combined` : 100 + i * 7},${i % 9 === 0 ? 'N/A' : 100 + i * 7 + 2},${i % 2 ? 'Male' : 'Female'},,`).join('\r\n') +
      '\r\n',
    // With the header fix found, the values are checked as they read under it (one "Apply all" read for both).
    expect: { findings: ['header_as_data:+fix', 'column_names:column8|column9', 'placeholders:departure_day+fix'] },
  },
  {
    name: 'header-counter.tsv',
    like: 'fivethirtyeight/data nba-winprobs/nba.tsv',
    was: 'a header of column numbers (pandas) was read as data, unreported',
    text: rows('team\t0\t1\t2\t3\t4\t5', repeat(12, (i) => [`Team${i}`, ...repeat(6, (k) => (0.4 + ((i * 7 + k * 3) % 20) / 100).toFixed(5))].join('\t'))),
    expect: { findings: ['header_as_data:+fix'] },
  },
  {
    name: 'ampm-timestamps.csv',
    like: 'fivethirtyeight/data march-madness-predictions/bracket-17.csv',
    was: '"3/20/2014 10:31 PM" left as text, unreported',
    text: rows(
      'team_name,team_seed,win_odds,timestamp',
      repeat(16, (i) => `Team ${i},${(i % 16) + 1},${i % 4 === 0 ? '--' : (0.9 - i / 20).toFixed(3)},3/${20 + (i % 3)}/2014 ${(i % 12) + 1}:${String((i * 7) % 60).padStart(2, '0')} ${i % 2 ? 'PM' : 'AM'}`),
    ),
    expect: { findings: ['placeholders:win_odds+fix', 'unparsed_dates:timestamp+fix'] },
  },
  {
    name: 'us-timestamps.csv',
    like: 'fivethirtyeight/data trump-twitter/realDonaldTrump_poll_tweets.csv',
    was: '"8/16/2016 19:22:57" left as text, unreported',
    text: rows('text,created_at,id', repeat(20, (i) => `"Poll tweet ${i}",${(i % 12) + 1}/${(i % 28) + 1}/2016 ${(i * 5) % 24}:${String((i * 7) % 60).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')},${760000000000000000 + i}`)),
    expect: { findings: ['unparsed_dates:created_at+fix'] },
  },
  {
    name: 'two-digit-years.csv',
    like: 'fivethirtyeight/data antiquities-act/actions_under_antiquities_act.csv',
    was: 'm/d/yy dates back to 1906 left as text, unreported (and %y would read 37 as 2037, so no re-read)',
    text: rows('name,date,year', [...repeat(20, (i) => `Monument ${i},${(i % 12) + 1}/${(i % 27) + 1}/${String((6 + i * 5) % 100).padStart(2, '0')},${1906 + i * 5}`), 'Odd one,1930,1930']),
    expect: { findings: ['unparsed_dates:date'] },
  },
  {
    name: 'votes-and-districts.csv',
    like: 'fivethirtyeight/data primary-project-2022/dem_candidates.csv',
    was: 'District codes (N/A, At-Large) got a numeric fix; vote counts with thousands and N/A were missed',
    text: rows(
      'Candidate,State,District,Primary Votes',
      repeat(30, (i) => `Person ${i},State ${i % 5},${i % 5 === 0 ? 'N/A' : i % 7 === 0 ? 'At-Large' : (i % 9) + 1},${i % 6 === 0 ? 'N/A' : `"${(i + 1) * 1000 + 881 > 999 ? `${Math.floor(((i + 1) * 1000 + 881) / 1000)},${String(((i + 1) * 1000 + 881) % 1000).padStart(3, '0')}` : 881}"`}`),
    ),
    expect: { findings: ['thousands:Primary Votes+fix'] },
  },
  {
    name: 'repeated-header-rows.csv',
    like: 'fivethirtyeight/data bachelorette/bachelorette.csv',
    was: 'header rows repeated in the data made code columns (E, W) "mostly numbers", with a fix that nulled the codes',
    text: rows('SEASON,ID,ELIMINATION-1,ELIMINATION-2', [
      ...['13', '12', '11'].flatMap((season) => ['SEASON,ID,1,2', ...repeat(3, (i) => `${season},P${season}_${i},${i === 0 ? 'R1' : ''},${i === 1 ? 'E' : i === 2 ? 'W' : ''}`)]),
    ]),
    expect: { findings: [] },
  },
  {
    name: 'excel-null-errors.csv',
    like: 'plotly/datasets hofstede-cultural-dimensions.csv',
    was: 'SPSS/Excel #NULL! cells were called mixed types, one finding per column',
    text: rows('ctr;country;pdi;idv', repeat(12, (i) => `C${i};Country ${i};${i % 3 === 0 ? '#NULL!' : 40 + i};${i % 3 === 0 ? '#NULL!' : 20 + i}`)),
    expect: { findings: ['placeholders:idv|pdi+fix'] },
  },
  {
    name: 'trailing-tabs.csv',
    like: 'plotly/datasets inset.csv',
    was: 'numbers followed by tabs were left as text, unreported',
    text: rows('yerror,xerror', repeat(12, (i) => `${(i / 7).toFixed(4)},${i % 2 ? `${(i * 3.7).toFixed(3)}` : `0${'\t'.repeat((i % 3) + 1)}`}`)),
    expect: { findings: ['whitespace:xerror+fix'] },
  },
  {
    name: 'zip-codes.csv',
    like: 'plotly/datasets fips-unemp-16.csv (codes with leading zeros)',
    was: 'a code column with leading zeros and N/A was offered a numeric fix that drops the zeros',
    text: rows('zip,population', repeat(12, (i) => `${i === 3 ? 'N/A' : String(2134 + i * 811).padStart(5, '0')},${1000 + i}`)),
    expect: { findings: [] },
  },
  {
    name: 'decimal-comma-and-float.tsv',
    like: 'plotly/datasets global_super_store_orders.tsv',
    was: 'the decimal-comma fix turned the "Postal Code" column (27217.0) into text',
    text: rows('Order\tPostal Code\tSales', repeat(12, (i) => `O${i}\t${27217 + i}.0\t${10 + i},${(i * 37) % 100}`)),
    expect: { findings: ['decimal_comma:Sales'] },
  },
  {
    name: 'na-in-many-columns.csv',
    like: 'plotly/datasets imports-85.csv',
    was: 'one finding per column for the same re-read',
    text: rows('make,bore,stroke,price', repeat(12, (i) => `Make${i},${i % 4 === 1 ? 'NA' : (3 + i / 10).toFixed(2)},${i % 5 === 2 ? 'NA' : (2.5 + i / 10).toFixed(2)},${i % 6 === 3 ? 'NA' : 10000 + i * 250}`)),
    expect: { findings: ['placeholders:bore|price|stroke+fix'] },
  },
  {
    name: 'space-thousands.csv',
    like: 'plotly/datasets 2015_Instant_Noodle_Consumption_Around_the_World.csv',
    was: 'numbers grouped by spaces (40 430) had no fix',
    text: rows('Location, Servings', repeat(12, (i) => `Place ${i}, ${i + 1} ${String((i * 137) % 1000).padStart(3, '0')}`)),
    expect: { findings: ['thousands:Servings+fix'] },
  },
  {
    name: 'month-name-dates.csv',
    like: 'plotly/datasets horoscope_data.csv',
    was: '"June 29, 2022" left as text, unreported',
    text: rows('sign,current_date', repeat(12, (i) => `Sign ${i},"${['January', 'June', 'March', 'October'][i % 4]} ${(i % 28) + 1}, 2022"`)),
    expect: { findings: ['unparsed_dates:current_date+fix'] },
  },
  {
    name: 'month-name-timestamps.csv',
    like: 'OpenAQ export via Afryk/Final_Project1 scraped_data.csv',
    was: '"November 13, 2023 6:00 AM" left as text, unreported',
    text: rows('ID,Pollutant,Value,Last Update', repeat(12, (i) => `${i + 1},CO,${(150 + i * 7.3).toFixed(3)},"November ${(i % 28) + 1}, 2023 ${(i % 12) + 1}:00 ${i % 2 ? 'PM' : 'AM'}"`)),
    expect: { findings: ['unparsed_dates:Last Update+fix'] },
  },
  {
    name: 'timestamps-with-na.csv',
    like: 'an AWS IAM credential report (JakubDziegielewski/AWS_testbench credential_report.csv)',
    was: 'N/A in a column of +00:00 timestamps left it text, unreported',
    text: rows('user,user_creation_time,password_last_used', repeat(10, (i) => `user${i},2022-0${(i % 9) + 1}-0${(i % 8) + 1}T16:02:2${i}+00:00,${i % 3 === 0 ? 'N/A' : `2022-12-${10 + i}T16:19:23+00:00`}`)),
    expect: { findings: ['placeholders:password_last_used+fix'], timeZones: ['user_creation_time'] },
  },
  {
    name: 'usgs-events.csv',
    like: 'USGS earthquake catalogue (NewsAppsUMD/data-certificate data/earthquakes.csv)',
    was: 'time-zone columns and NA placeholders: date SQL and the fix checked against native DuckDB',
    text: rows('time,latitude,mag,magError,updated', repeat(12, (i) => `2026-01-0${(i % 6) + 1}T${String(10 + i).padStart(2, '0')}:54:04Z,${(38 + i / 10).toFixed(3)},${(0.7 + i / 10).toFixed(2)},${i % 4 === 0 ? 'NA' : (0.2 + i / 50).toFixed(2)},2026-01-0${(i % 6) + 1}T${String(11 + i).padStart(2, '0')}:55:39Z`)),
    expect: { findings: ['placeholders:magError+fix'], timeZones: ['time', 'updated'] },
  },
  {
    name: 'eu-offsets.csv',
    like: 'OpenAQ export (Afryk/Final_Project1 openaq.csv): ";", +02:00 offsets, a BOM',
    was: 'loaded right: nothing may change',
    text: `\uFEFF${rows('Country Code;City;Value;Last Updated', repeat(10, (i) => `LT;City ${i};${(22.38 + i).toFixed(8)};2023-11-12T0${i % 10}:00:00+02:00`))}`,
    expect: { findings: [], timeZones: ['Last Updated'] },
  },
  {
    name: 'utc-suffix.csv',
    like: 'BigQuery / GitHub Archive exports ("2020-01-01 10:00:00 UTC")',
    was: 'not in the corpus run; the brief names it. DuckDB reads it as a plain TIMESTAMP (in UTC), as natively: nothing to report',
    text: rows('event,created_at', repeat(12, (i) => `e${i},2020-01-${String((i % 28) + 1).padStart(2, '0')} ${String(i + 8).padStart(2, '0')}:0${i % 10}:00 UTC`)),
    expect: { findings: [] },
  },
  {
    name: 'uk-day-first-times.csv',
    like: 'UK open-data exports (dd/mm/yyyy hh:mm)',
    was: 'not in the corpus run; the brief names it',
    text: rows('site,reading_time,no2', repeat(14, (i) => `Site ${i % 3},${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/2021 ${String(i + 6).padStart(2, '0')}:30,${20 + i}`)),
    expect: { findings: ['unparsed_dates:reading_time+fix'] },
  },
  {
    name: 'dates-and-a-few-timestamps.csv',
    like: 'plotly/datasets earthquakes-23k.csv',
    was: 'm/d/Y dates kept as text by three ISO timestamps among them, unreported',
    text: rows('Date,Magnitude', [...repeat(150, (i) => `${String((i % 12) + 1).padStart(2, '0')}/${String((i % 28) + 1).padStart(2, '0')}/19${65 + (i % 30)},${(5.5 + (i % 10) / 10).toFixed(1)}`), '1975-02-23T02:58:41.000Z,5.6']),
    expect: { findings: ['unparsed_dates:Date'] },
  },
  {
    name: 'uk-title-and-years.csv',
    like: 'UK statistics tables (title and source lines, years as column names, ".." and "x" for missing)',
    was: 'not in the corpus run; the brief names it',
    text:
      'Table 1: Mid-year population estimates, 2019 to 2020\nSource: Office for National Statistics\n\nArea code,Area name,2019,2020\n' +
      repeat(12, (i) => `E0600000${i},Area ${i},${93663 + i * 1000},${i === 2 ? '..' : i === 5 ? 'x' : 93800 + i * 1000}`).join('\n') +
      '\n',
    // The placeholders are found under the title fix at once, so one read applies both.
    expect: { findings: ['title_line:+fix', 'placeholders:2020+fix'] },
  },
  {
    name: 'german-numbers.csv',
    like: 'German open-data exports (";", 1.234,56)',
    was: 'not in the corpus run; the brief names it',
    text: rows('Land;Wert;Anteil', repeat(12, (i) => `Land ${i};${i % 3 === 0 ? `${i + 1}.${String(234 + i).padStart(3, '0')},5${i}` : `${987 + i},1`};${i % 4},${25 + i}`)),
    // Two re-reads, each DuckDB's: the dotted one reads both columns.
    expect: { findings: ['decimal_comma:Anteil+fix', 'decimal_comma:Wert+fix'] },
  },
  {
    name: 'windows-1252.csv',
    like: 'fivethirtyeight/data ahca-polls/ahca_polls.csv (and 7 more that did not load)',
    was: 'bytes 0x80–0x9F made DuckDB refuse the file ("not latin-1 encoded")',
    // “yes” and … in Windows-1252, and 0x81 (unassigned there, read as U+0081).
    text: new Uint8Array([...enc('id,Text\n1,"please answer '), 0x93, ...enc('yes'), 0x94, 0x85, ...enc('"\n2,"caf'), 0xe9, 0x20, 0x81, ...enc('"\n3,plain\n')]),
    expect: { findings: [] },
  },
];
