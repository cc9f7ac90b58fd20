import { describe, expect, it } from 'vitest';
import { isHeaderLike, layoutOf } from './layout';

/** Rows as DuckDB gives them read without a header, all as text (blank lines dropped). */
const rows = (text: string, delim = ','): (string | null)[][] => {
  const lines = text.split('\n').filter((l) => l.trim() !== '').map((l) => l.split(delim).map((v) => v.replace(/^"|"$/g, '')));
  const w = Math.max(...lines.map((l) => l.length));
  return lines.map((l) => Array.from({ length: w }, (_, i) => (l[i] === undefined || l[i] === '' ? null : l[i]!)));
};

const data = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n');

describe('layoutOf', () => {
  it('finds the header under World Bank metadata lines (years as names read as numbers)', () => {
    const text = `"Data Source","World Development Indicators",\n"Last Updated Date","2024-06-28",\n"Country Name","Country Code","Indicator Name","Indicator Code","1960","1961","1962",\n${data(12, (i) => `"C${i}","C${i}X","Population, total","SP.POP.TOTL","${5000 + i}","${5100 + i}","${5200 + i}",`)}`;
    expect(layoutOf(rows(text))).toEqual({ start: 2, header: true });
  });

  it('finds headerless data under ONS series metadata of the same width', () => {
    const meta = '"Title","CPI INDEX 00: ALL ITEMS 2015=100"\n"CDID","D7BT"\n"Source dataset ID","MM23"\n"PreUnit",""\n"Unit","Index, base year = 100"\n"Release date","15-11-2023"\n"Next release","13 December 2023"\n"Important notes",""';
    expect(layoutOf(rows(`${meta}\n${data(12, (i) => `"${1988 + i}","${40 + i}.5"`)}`))).toEqual({ start: 8, header: false });
  });

  it('finds a header under a title in a ";" file', () => {
    const text = `Estación: Madrid;;;\nLatitud 40.4;;;\nFecha;Global;Difusa;Inclinada\n${data(10, (i) => `0${(i % 9) + 1}/01/2020;${100 + i};${20 + i};${110 + i}`)}`;
    expect(layoutOf(rows(text, ';'))).toEqual({ start: 2, header: true });
  });

  it('says nothing of a file whose header is its first line', () => {
    expect(layoutOf(rows(`id,region,amount\n${data(10, (i) => `${i},north,${i}.5`)}`))).toBeUndefined();
  });

  it('says nothing of a file without a header whose first rows are data', () => {
    expect(layoutOf(rows(data(10, (i) => `${i},north,${i}.5`)))).toBeUndefined();
  });

  it('does not take a first data row with a stray string for a header', () => {
    expect(layoutOf(rows(`id,score\n1,see notes\n${data(10, (i) => `${i + 2},${i * 3}`)}`))).toBeUndefined();
  });

  it('does not take data rows of the same shape for metadata', () => {
    // Text where the numbers are further down, in the same shape: data, not notes.
    expect(layoutOf(rows(`name,value\na,x\nb,y\n${data(12, (i) => `c${i},${i}`)}`))).toBeUndefined();
  });
});

describe('isHeaderLike', () => {
  it('takes names and years in order, not numbers or repeats', () => {
    expect(isHeaderLike(['Area code', 'Area name', '2019', '2020'], 4)).toBe(true);
    expect(isHeaderLike(['a', '12.5', 'b'], 3)).toBe(false);
    expect(isHeaderLike(['x', 'x', 'y'], 3)).toBe(false);
    expect(isHeaderLike(['2020', '2019'], 2)).toBe(false);
  });
});

describe('layoutOf on European files', () => {
  it('finds the header under station lines when the data has decimal commas and d/m/Y dates', () => {
    const text = `Estación;Madrid Ciudad Universitaria;;\nLatitud;40,45;;\nFecha;Global;Difusa;Inclinada\n${data(12, (i) => `${(i % 28) + 1}/01/2021;${10 + i},35;3,${i};12,${i}`)}`;
    expect(layoutOf(rows(text, ';'))).toEqual({ start: 2, header: true });
  });
});

describe('layoutOf on a Eurostat ";" extract', () => {
  it('does not take a dated metadata line for data', () => {
    const text = `"Dataset:";"Population on 1 January"\n"Last updated:";"12/03/2024 23:00"\n"GEO (Labels)";"2019";"2020";"2021"\n${data(12, (i) => `"Region ${i}";"${4000000 + i}";"${4010000 + i}";"${4020000 + i}"`)}`;
    expect(layoutOf(rows(text, ';'))).toEqual({ start: 2, header: true });
  });
});
