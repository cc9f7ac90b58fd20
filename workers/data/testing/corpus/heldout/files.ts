/**
 * The held-out judge's files: written in the shapes of public statistical and open-data files
 * (no download here), each with its ground truth written down before the load report was run on
 * it. None of them is one of the files the checks were tuned on (../real). A file is right when
 * every column the truth names has that type and every check's SQL gives its value; `{t}` is the
 * dataset's table.
 */
export interface HeldOutFile {
  name: string;
  /** The public file it is shaped after. */
  like: string;
  text: string;
  truth: {
    types: Record<string, string>;
    checks?: { sql: string; expect: string }[];
  };
}

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n');
const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const HELD_OUT: HeldOutFile[] = [
  {
    name: 'stock-prices.csv',
    like: 'InfiAgent-DABench microsoft.csv (dd-Mon-yy dates)',
    text: `Date,Open,High,Low,Close,Volume\n${lines(40, (i) => `${String((i % 28) + 1).padStart(2, '0')}-${mon[i % 12]}-${i < 20 ? '17' : '18'},${(62 + i * 0.7).toFixed(2)},${(63 + i * 0.7).toFixed(2)},${(61 + i * 0.7).toFixed(2)},${(62.5 + i * 0.7).toFixed(2)},${19345212 + i * 1000}`)}\n`,
    truth: {
      types: { Date: 'DATE', Open: 'DOUBLE', Volume: 'BIGINT' },
      checks: [
        { sql: 'SELECT min(year("Date")) FROM {t}', expect: '2017' },
        { sql: 'SELECT max(year("Date")) FROM {t}', expect: '2018' },
      ],
    },
  },
  {
    name: 'country-codes.csv',
    like: 'datasets/country-codes data/country-codes.csv (lists of codes in quoted fields)',
    text: `official_name_en,ISO3166-1-numeric,Dial,Languages,Continent\n${lines(30, (i) => `Country ${i},${100 + i},${i % 5 === 0 ? `"${i % 9},${i % 9}"` : i % 7 === 0 ? `"1,${i}"` : String(30 + i)},"en-${i},fr",EU`)}\n`,
    truth: {
      types: { official_name_en: 'VARCHAR', 'ISO3166-1-numeric': 'BIGINT', Dial: 'VARCHAR', Languages: 'VARCHAR' },
      // Rows 0, 5, 10, 15, 20, 25 ("i,i") and 7, 14, 21, 28 ("1,i"): 10 lists. (Written as 8 before the first run, a miscount of the truth, not of the app.)
      checks: [{ sql: `SELECT count(*) FROM {t} WHERE "Dial" LIKE '%,%'`, expect: '10' }],
    },
  },
  {
    name: 'API_NY.GDP.PCAP.CD_DS2_en_csv_v2_1234.csv',
    like: 'World Bank API_*.csv (4 metadata lines, blank lines, years as column names, trailing comma)',
    text: `"Data Source","World Development Indicators",\n\n"Last Updated Date","2024-06-28",\n\n"Country Name","Country Code","Indicator Name","Indicator Code","2018","2019","2020","2021",\n${lines(30, (i) => `"Country ${i}","C${String(i).padStart(2, '0')}","GDP per capita (current US$)","NY.GDP.PCAP.CD","${(1000 + i * 37.25).toFixed(2)}","${(1100 + i * 37.5).toFixed(2)}",${i === 3 ? '""' : `"${(1050 + i * 36).toFixed(2)}"`},"${(1200 + i * 38).toFixed(2)}",`)}\n`,
    truth: {
      types: { 'Country Name': 'VARCHAR', 'Country Code': 'VARCHAR', '2018': 'DOUBLE', '2020': 'DOUBLE', '2021': 'DOUBLE' },
      checks: [{ sql: 'SELECT count(*) FROM {t}', expect: '30' }],
    },
  },
  {
    name: 'mm23-cpih.csv',
    like: 'ONS time series CSV (8 metadata lines, then period,value rows without a header)',
    text: `"Title","CPIH ANNUAL RATE 00: ALL ITEMS 2015=100"\n"CDID","L55O"\n"Source dataset ID","MM23"\n"PreUnit",""\n"Unit","%"\n"Release date","15-11-2023"\n"Next release","13 December 2023"\n"Important notes",""\n${lines(20, (i) => `"${1989 + i}","${(2 + (i % 5) * 0.7).toFixed(1)}"`)}\n${lines(12, (i) => `"${1989 + Math.floor(i / 4)} Q${(i % 4) + 1}","${(3 + (i % 3) * 0.4).toFixed(1)}"`)}\n`,
    truth: {
      types: { column1: 'DOUBLE' },
      checks: [{ sql: 'SELECT count(*) FROM {t}', expect: '32' }],
    },
  },
  {
    name: 'sensor-readings.txt',
    like: 'a space-delimited instrument log without a header',
    text: `${lines(25, (i) => `${i + 1} ${(20 + i * 0.1).toFixed(1)} ${(55 + i).toFixed(0)} ok`)}\n`,
    truth: { types: { column0: 'BIGINT', column1: 'DOUBLE', column2: 'BIGINT' } },
  },
  {
    name: 'radiacion_diaria.csv',
    like: 'a Spanish solar-radiation station file (station lines above a ";" header, decimal commas, d/m/Y dates)',
    text: `Estación;Madrid Ciudad Universitaria;;\nLatitud;40,45;;\n\nFecha;Global;Difusa;Inclinada\n${lines(30, (i) => `${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/2021;${(10 + i * 0.35).toFixed(2).replace('.', ',')};${(3 + i * 0.1).toFixed(2).replace('.', ',')};${(12 + i * 0.4).toFixed(2).replace('.', ',')}`)}\n`,
    truth: {
      types: { Fecha: 'DATE', Global: 'DOUBLE', Difusa: 'DOUBLE', Inclinada: 'DOUBLE' },
      checks: [{ sql: 'SELECT count(*) FROM {t}', expect: '30' }],
    },
  },
  {
    name: 'demo_pjan_extract.csv',
    like: 'a Eurostat ";" extract (dataset and update lines above the header)',
    text: `"Dataset:";"Population on 1 January by age and sex [demo_pjan]"\n"Last updated:";"12/03/2024 23:00"\n\n"GEO (Labels)";"2019";"2020";"2021"\n${lines(20, (i) => `"Region ${i}";"${4000000 + i * 1234}";"${4010000 + i * 1234}";"${4020000 + i * 1234}"`)}\n`,
    truth: {
      types: { 'GEO (Labels)': 'VARCHAR', '2019': 'BIGINT', '2021': 'BIGINT' },
      checks: [{ sql: 'SELECT count(*) FROM {t}', expect: '20' }],
    },
  },
  {
    name: 'lfsa_ergan.tsv',
    like: 'Eurostat bulk TSV (geo\\time header, ":" missing, flags after values)',
    text: `unit,sex,age,geo\\time\t2021 \t2020 \t2019 \n${lines(20, (i) => `PC,F,Y15-64,R${i}\t${(60 + i * 0.5).toFixed(1)}${i % 4 === 0 ? ' b' : ' '}\t${i % 6 === 0 ? ': ' : `${(59 + i * 0.5).toFixed(1)}${i % 5 === 0 ? ' e' : ' '}`}\t${(58 + i * 0.5).toFixed(1)} `)}\n`,
    truth: { types: { '2021': 'DOUBLE', '2020': 'DOUBLE', '2019': 'DOUBLE' } },
  },
  {
    name: 'trees-clean.csv',
    like: 'a city open-data tree inventory (clean, ISO dates)',
    text: `tree_id,species,planted,diameter_cm,lat,lon\n${lines(40, (i) => `${1000 + i},${['Acer', 'Tilia', 'Quercus'][i % 3]},20${10 + (i % 10)}-0${(i % 9) + 1}-1${i % 10},${10 + i},52.${5000 + i},13.${4000 + i}`)}\n`,
    truth: { types: { tree_id: 'BIGINT', species: 'VARCHAR', planted: 'DATE', diameter_cm: 'BIGINT', lat: 'DOUBLE' } },
  },
  {
    name: 'umsatz.csv',
    like: 'a German statistics office CSV (";" delimiter, decimal commas)',
    text: `Monat;Umsatz;Index\n${lines(24, (i) => `2022-${String((i % 12) + 1).padStart(2, '0')}-01;${(1500 + i * 12.5).toFixed(2).replace('.', ',')};${(98 + i * 0.3).toFixed(1).replace('.', ',')}`)}\n`,
    truth: {
      types: { Monat: 'DATE', Umsatz: 'DOUBLE', Index: 'DOUBLE' },
      checks: [{ sql: 'SELECT round(sum("Umsatz"), 2) FROM {t}', expect: String((Array.from({ length: 24 }, (_, i) => Math.round((1500 + i * 12.5) * 100)).reduce((a, b) => a + b, 0) / 100).toString()) }],
    },
  },
  {
    name: 'survey-na.csv',
    like: 'an R export (NA for missing numbers)',
    text: `id,age,income,region\n${lines(30, (i) => `${i + 1},${i % 7 === 0 ? 'NA' : 20 + i},${i % 4 === 0 ? 'NA' : 30000 + i * 250},${['N', 'S', 'E', 'W'][i % 4]}`)}\n`,
    truth: { types: { id: 'BIGINT', age: 'BIGINT', income: 'BIGINT', region: 'VARCHAR' } },
  },
  {
    name: 'shipments-mdy.csv',
    like: 'a US export with two-digit-year dates (m/d/yy)',
    text: `order,shipped,qty\n${lines(30, (i) => `${500 + i},${(i % 12) + 1}/${(i % 27) + 1}/${i < 15 ? '98' : '21'},${i + 3}`)}\n`,
    truth: {
      types: { order: 'BIGINT', shipped: 'DATE', qty: 'BIGINT' },
      checks: [{ sql: 'SELECT min(year("shipped")) FROM {t}', expect: '1998' }],
    },
  },
  {
    name: 'parish-records.csv',
    like: 'a historical records transcription (dd-Mon-yyyy dates from the 1800s)',
    text: `entry,baptised,parish\n${lines(25, (i) => `${i + 1},${String((i % 28) + 1).padStart(2, '0')}-${mon[i % 12]}-${1851 + i},St Mary`)}\n`,
    truth: {
      types: { entry: 'BIGINT', baptised: 'DATE', parish: 'VARCHAR' },
      checks: [{ sql: 'SELECT min(year("baptised")) FROM {t}', expect: '1851' }],
    },
  },
  {
    name: 'county-population.csv',
    like: 'a census table with thousands separators in quoted numbers',
    text: `county,population,area_km2\n${lines(25, (i) => `County ${i},"${(120000 + i * 31337).toLocaleString('en-US')}",${(500 + i * 3.5).toFixed(1)}`)}\n`,
    truth: { types: { county: 'VARCHAR', population: 'BIGINT', area_km2: 'DOUBLE' } },
  },
  {
    name: 'ons-table-notes.csv',
    like: 'an ONS download of a table (title and notes lines, "[x]" and "[c]" for suppressed values)',
    text: `Table 3: Deaths registered by area, England and Wales\nThis worksheet contains one table. Some cells refer to notes.\nSource: Office for National Statistics\nArea code,Area name,2021,2022\n${lines(20, (i) => `E0800000${i},Area ${i},${i === 4 ? '[x]' : 1200 + i * 17},${i === 9 ? '[c]' : 1250 + i * 16}`)}\n`,
    truth: {
      types: { 'Area code': 'VARCHAR', 'Area name': 'VARCHAR', '2021': 'BIGINT', '2022': 'BIGINT' },
      checks: [{ sql: 'SELECT count(*) FROM {t}', expect: '20' }],
    },
  },
];
