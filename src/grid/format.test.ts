import { describe, expect, it } from 'vitest';
import { columnFormat, float32Text, formatCell, fullText, groupDigits } from './format';

describe('grid formats', () => {
  it('groups integers, but not identifiers or years', () => {
    expect(formatCell(1234567, columnFormat('population', 'BIGINT'))).toBe('1,234,567');
    expect(formatCell('-98765432109876543210', columnFormat('total', 'HUGEINT'))).toBe('-98,765,432,109,876,543,210');
    expect(formatCell(2024, columnFormat('year', 'INTEGER'))).toBe('2024');
    expect(formatCell(10234, columnFormat('customer_id', 'INTEGER'))).toBe('10234');
    expect(formatCell(10234, columnFormat('ID', 'INTEGER'))).toBe('10234');
    expect(formatCell(999, columnFormat('n', 'INTEGER'))).toBe('999');
    expect(formatCell(1461, columnFormat('n', 'BIGINT'))).toBe('1461');
    expect(formatCell(-12345, columnFormat('n', 'BIGINT'))).toBe('-12,345');
    expect(groupDigits('12.5')).toBe('12.5');
  });

  it('shows float32 at its own precision, DECIMAL with its scale, DOUBLE to 12 digits', () => {
    expect(formatCell(Math.fround(23.9833333), columnFormat('t', 'FLOAT'))).toBe('23.983334');
    expect(float32Text(Math.fround(0.1))).toBe('0.1');
    expect(formatCell(12.5, columnFormat('price', 'DECIMAL(10,2)'))).toBe('12.50');
    expect(formatCell(315.9816666666667, columnFormat('x', 'DOUBLE'))).toBe('315.981666667');
    expect(fullText(315.9816666666667, columnFormat('x', 'DOUBLE'))).toBe('315.9816666666667');
  });

  it('leaves text, NULL and booleans as they are', () => {
    expect(formatCell('1234', columnFormat('s', 'VARCHAR'))).toBe('1234');
    expect(formatCell(null, columnFormat('n', 'BIGINT'))).toBe('NULL');
    expect(formatCell(true, columnFormat('b', 'BOOLEAN'))).toBe('true');
  });
});
