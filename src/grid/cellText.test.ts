import { describe, expect, it } from 'vitest';
import { cellText, columnWidth, isNumericType } from './cellText';

describe('cellText', () => {
  it('shows nulls, numbers and markup-looking strings as text', () => {
    expect(cellText(null)).toBe('NULL');
    expect(cellText(undefined)).toBe('');
    expect(cellText(0.1 + 0.2)).toBe('0.3');
    expect(cellText(3750)).toBe('3750');
    expect(cellText(NaN)).toBe('NaN');
    expect(cellText('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
    expect(cellText(false)).toBe('false');
  });

  it('recognises DuckDB numeric types', () => {
    expect(isNumericType('DECIMAL(18,3)')).toBe(true);
    expect(isNumericType('BIGINT')).toBe(true);
    expect(isNumericType('VARCHAR')).toBe(false);
    expect(isNumericType('INTERVAL')).toBe(false);
  });

  it('sizes columns between bounds', () => {
    expect(columnWidth('a', 'DOUBLE')).toBe(110);
    expect(columnWidth('a', 'VARCHAR')).toBe(170);
    expect(columnWidth('x'.repeat(100), 'VARCHAR')).toBe(320);
  });
});
