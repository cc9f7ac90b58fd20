/**
 * The cells of a Jupyter notebook's text, as the parse worker reads them: JSON.parse of the whole
 * file (outputs, images and all: the dear part of an import) and each cell's kind, source and
 * Dataseer role. The page turns these few strings into its cells (src/notebook/ipynb.ts).
 */
import type { RawNotebookCell } from '../../protocol/parse';

export type { RawNotebookCell };
export type RawCellsOutcome = { ok: true; cells: RawNotebookCell[] } | { ok: false; message: string };

function sourceText(source: unknown): string {
  if (typeof source === 'string') return source;
  if (Array.isArray(source)) return source.map(String).join('');
  return '';
}

export function readIpynbCells(text: string): RawCellsOutcome {
  let nb: unknown;
  try {
    nb = JSON.parse(text);
  } catch {
    return { ok: false, message: 'This file is not a notebook: it is not JSON.' };
  }
  const cells = (nb as { cells?: unknown } | null)?.cells;
  if (typeof nb !== 'object' || nb === null || !Array.isArray(cells)) {
    return { ok: false, message: 'This file is not a Jupyter notebook: it has no cells.' };
  }
  const out: RawNotebookCell[] = [];
  for (const raw of cells as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const c = raw as { cell_type?: unknown; source?: unknown; metadata?: { dataseer?: { role?: unknown } } };
    if (c.cell_type !== 'markdown' && c.cell_type !== 'code') continue;
    const role = c.metadata?.dataseer?.role;
    out.push({ kind: c.cell_type, source: sourceText(c.source), ...(typeof role === 'string' ? { role } : {}) });
  }
  return { ok: true, cells: out };
}
