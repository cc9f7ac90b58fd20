import { describe, expect, it } from 'vitest';
import { fileStem, sanitizeName, tableNameFor, uniqueName } from './tableName';

describe('table names', () => {
  it('follows the contract example', () => {
    expect(tableNameFor('Seattle-Weather 2024.csv', [])).toBe('seattle_weather_2024');
  });
  it('takes the stem only', () => {
    expect(fileStem('dir/sub/Sales.2024.csv')).toBe('Sales.2024');
    expect(fileStem('README')).toBe('README');
    expect(fileStem('.csv')).toBe('');
    expect(tableNameFor('Sales.2024.csv', [])).toBe('sales_2024');
  });
  it('collapses runs and keeps edges literal', () => {
    expect(sanitizeName('a -- b')).toBe('a_b');
    expect(sanitizeName('Café (1)')).toBe('caf_1_');
  });
  it('suffixes clashes _2, _3', () => {
    expect(tableNameFor('penguins.json', ['penguins'])).toBe('penguins_2');
    expect(tableNameFor('Penguins.csv', ['penguins', 'PENGUINS_2'])).toBe('penguins_3');
    expect(uniqueName('x', [])).toBe('x');
  });
  it('makes empty and digit-led names usable', () => {
    expect(tableNameFor('.csv', [])).toBe('dataset');
    expect(tableNameFor('###.csv', [])).toBe('dataset');
    expect(tableNameFor('2024 sales.csv', [])).toBe('t_2024_sales');
  });
  it('keeps reserved words (they are quoted in SQL)', () => {
    expect(tableNameFor('Select.csv', [])).toBe('select');
  });
  it('names Excel sheets <stem>_<sheet>', () => {
    expect(tableNameFor('Budget.xlsx', [], 'Q1 2024')).toBe('budget_q1_2024');
  });
});
