/**
 * Which dictionary belongs to which dataset (issue 32): by content, not by table name. A
 * dictionary records the fingerprint of the dataset it was written for (its source file's name
 * and size, and its column names); it belongs to the loaded dataset with that fingerprint under
 * any table name, so a rename keeps it. A dictionary stored under a dataset's name but written for
 * another file, or one written for a file with the same columns, is only *offered*: a different
 * `survey.csv` must not silently inherit the old file's codes.
 */
import type { DataDictionary } from '../../protocol/agent/knowledge';

/** What identifies a dataset's content (a `DatasetInfo` has these). */
export interface DatasetIdentity {
  name: string;
  fileName: string;
  sizeBytes: number;
  columns: readonly { name: string }[];
}

const columnsKey = (columns: readonly { name: string }[]) => columns.map((c) => c.name).join('\u001f');

/**
 * Source and schema in one string. Column names, not types: a load report's fix that re-reads a
 * column as a date is still the same data.
 */
export function datasetFingerprint(ds: DatasetIdentity): string {
  return `${ds.fileName}\u001e${ds.sizeBytes}\u001e${columnsKey(ds.columns)}`;
}

const columnsOf = (fingerprint: string): string => fingerprint.split('\u001e').slice(2).join('\u001e');

export type OfferReason = 'same_name' | 'same_columns';

export interface Binding {
  /** The dictionary that is this dataset's (taught to the model when accepted). */
  own?: DataDictionary;
  /** A dictionary written for other content, offered to the user, never applied on its own. */
  offered?: { dictionary: DataDictionary; reason: OfferReason };
}

/**
 * Each loaded dataset's own dictionary (renamed to the dataset's current name) and what is offered
 * to it. A dictionary without a fingerprint (stored before issue 32) is bound by name, as it was.
 */
export function bindDictionaries(dictionaries: readonly DataDictionary[], datasets: readonly DatasetIdentity[]): Map<string, Binding> {
  const out = new Map<string, Binding>(datasets.map((d) => [d.name, {}]));
  const fps = new Map(datasets.map((d) => [d.name, datasetFingerprint(d)]));
  const used = new Set<DataDictionary>();
  // Content first: a dictionary follows its data to whatever name it has now. The one stored under
  // the dataset's own name is taken first (the same file loaded twice keeps its own), then the newest.
  const claim = (ds: DatasetIdentity, sameName: boolean) => {
    if (out.get(ds.name)?.own) return;
    const fp = fps.get(ds.name);
    const own = dictionaries
      .filter((d) => d.fingerprint !== undefined && d.fingerprint === fp && !used.has(d) && (!sameName || d.dataset === ds.name))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0];
    if (!own) return;
    used.add(own);
    out.set(ds.name, { own: own.dataset === ds.name ? own : { ...own, dataset: ds.name } });
  };
  for (const ds of datasets) claim(ds, true);
  for (const ds of datasets) claim(ds, false);
  for (const ds of datasets) {
    const b = out.get(ds.name) ?? {};
    if (b.own) continue;
    const byName = dictionaries.find((d) => d.dataset === ds.name && !used.has(d));
    if (byName && byName.fingerprint === undefined) {
      used.add(byName);
      out.set(ds.name, { own: byName });
      continue;
    }
    if (byName) {
      out.set(ds.name, { offered: { dictionary: byName, reason: 'same_name' } });
      continue;
    }
    const cols = columnsKey(ds.columns);
    const loadedNames = new Set(datasets.map((d) => d.name));
    const sameColumns = dictionaries.find((d) => d.fingerprint !== undefined && !used.has(d) && !loadedNames.has(d.dataset) && columnsOf(d.fingerprint) === cols);
    if (sameColumns) out.set(ds.name, { offered: { dictionary: sameColumns, reason: 'same_columns' } });
  }
  return out;
}

/** The dictionary adopted for a dataset: its name and content stamped, ready to store. */
export function adoptDictionary(d: DataDictionary, ds: DatasetIdentity): DataDictionary {
  const have = new Map(d.columns.map((c) => [c.name, c]));
  return {
    ...d,
    dataset: ds.name,
    fingerprint: datasetFingerprint(ds),
    // Fitted to the dataset's columns, in its order: a column it lacks is dropped, a new one blank.
    columns: ds.columns.map((c) => have.get(c.name) ?? { name: c.name, description: '', unit: '', role: 'other', codes: [], missing: [] }),
  };
}
