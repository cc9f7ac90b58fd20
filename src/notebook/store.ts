/**
 * The notebook in IndexedDB: written a moment after each change (and at once when a run ends),
 * read back on start, so a reload loses no cell and no output.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { workspaceView } from '../../shared/db/workspaceDb';
import { parseNotebookDoc, storedOutput, type NotebookDoc } from './model';

interface NotebookDb extends DBSchema {
  notebooks: { key: string; value: NotebookDoc };
}

export interface NotebookStore {
  load(id: string): Promise<NotebookDoc | null>;
  save(doc: NotebookDoc): Promise<void>;
}

export class IdbNotebookStore implements NotebookStore {
  /** `scrub` takes the user's keys out of the document before it is written; `dbName` names another workspace instance (tests). */
  constructor(
    private readonly dbName?: string,
    private readonly scrub: <T>(value: T) => T = (v) => v,
  ) {}

  #open(): Promise<IDBPDatabase<NotebookDb>> {
    return workspaceView<NotebookDb>(this.dbName).open();
  }

  async load(id: string): Promise<NotebookDoc | null> {
    return parseNotebookDoc(await (await this.#open()).get('notebooks', id));
  }

  async save(doc: NotebookDoc): Promise<void> {
    const stored: NotebookDoc = { ...doc, cells: doc.cells.map((c) => ({ ...c, output: storedOutput(c.output) })) };
    await (await this.#open()).put('notebooks', this.scrub(stored));
  }
}
