/**
 * Published reference scores the user types in (a paper's accuracy for a model on a question
 * set), shown beside their own runs. Kept in this browser only.
 */
export interface Reference {
  model: string;
  suite: string;
  /** 0..1 */
  accuracy: number;
  source: string;
}

const KEY = 'dataseer.bench.references';

export function readReferences(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Reference[] {
  try {
    const v = JSON.parse(storage?.getItem(KEY) ?? '[]') as unknown;
    if (!Array.isArray(v)) return [];
    return v.filter(
      (r): r is Reference =>
        typeof r === 'object' && r !== null && typeof (r as Reference).model === 'string' && typeof (r as Reference).suite === 'string' &&
        typeof (r as Reference).source === 'string' && typeof (r as Reference).accuracy === 'number' && (r as Reference).accuracy >= 0 && (r as Reference).accuracy <= 1,
    );
  } catch {
    return [];
  }
}

export function saveReferences(refs: readonly Reference[], storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(KEY, JSON.stringify(refs));
  } catch {
    // Storage may be unavailable (private mode); the references then last for the session.
  }
}
