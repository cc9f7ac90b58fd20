/** A wide CSV of small integers, every tenth column a short category (`item_1` … `item_N`). */
export function wideCsv(columns: number, rows: number): string {
  const lines = [Array.from({ length: columns }, (_, c) => `item_${c + 1}`).join(',')];
  for (let r = 0; r < rows; r++) lines.push(Array.from({ length: columns }, (_, c) => (c % 10 === 9 ? `a${(r + c) % 7}` : String((r * (c + 7)) % 97))).join(','));
  return `${lines.join('\n')}\n`;
}
