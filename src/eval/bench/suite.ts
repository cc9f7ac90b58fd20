/**
 * A question set the user brings, read from the files they picked (some files, a folder or a
 * zip): DABench's layout (a questions JSONL, a labels JSONL and the CSVs) or Dataseer's generic
 * JSONL with its data files. The files are matched by base name, as DABench's `file_name` names
 * them; a question whose file or label is missing is left out and the suite says so.
 */
import { unzipSync } from 'fflate';
import { looksLikeDabenchLabels, looksLikeDabenchQuestions, parseLabels, parseQuestions, type DabenchLabel, type DabenchQuestion } from './dabench';
import { looksLikeGeneric, parseGeneric, type GenericQuestion } from './generic';

export type SuiteFormat = 'dabench' | 'generic';

export type SuiteItem =
  | { format: 'dabench'; id: string; level: string; concepts: string[]; files: string[]; question: DabenchQuestion; label: DabenchLabel }
  | { format: 'generic'; id: string; level: string; concepts: string[]; files: string[]; question: GenericQuestion };

export interface Suite {
  name: string;
  format: SuiteFormat;
  items: SuiteItem[];
  /** The data files the items read, by base name. */
  files: Record<string, Blob>;
  /** Questions left out, with why. */
  skipped: { id: string; reason: string }[];
}

export interface PickedFile {
  /** The path as picked (a folder's relative path, a zip entry), or the file name. */
  path: string;
  blob: Blob;
}

/** A zip bigger than this is refused rather than inflated in the page (DABench's is ~10 MB). */
export const MAX_ZIP_BYTES = 512 * 1024 * 1024;

export const baseName = (path: string): string => path.split(/[\\/]/).pop() ?? path;
const ext = (path: string): string => (/\.([^./\\]+)$/.exec(path)?.[1] ?? '').toLowerCase();
/** macOS zips carry resource forks (`__MACOSX/._x.csv`) and folders carry `.DS_Store`: never data. */
const isNoise = (path: string): boolean => /(^|[\\/])(__MACOSX|\.DS_Store$)|(^|[\\/])\._/.test(path);

/** Zips expanded into their entries; everything else as picked. */
export async function expand(picked: readonly PickedFile[]): Promise<PickedFile[] | string> {
  const out: PickedFile[] = [];
  for (const f of picked) {
    if (isNoise(f.path)) continue;
    if (ext(f.path) !== 'zip') {
      out.push(f);
      continue;
    }
    if (f.blob.size > MAX_ZIP_BYTES) return `${baseName(f.path)} is ${Math.round(f.blob.size / 1048576)} MB; unzip it and pick the folder instead.`;
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(new Uint8Array(await f.blob.arrayBuffer()));
    } catch (e) {
      return `${baseName(f.path)} could not be unzipped (${e instanceof Error ? e.message : String(e)}).`;
    }
    for (const [path, bytes] of Object.entries(entries)) {
      if (path.endsWith('/') || isNoise(path)) continue;
      out.push({ path, blob: new Blob([bytes as Uint8Array<ArrayBuffer>]) });
    }
  }
  return out;
}

function nameOf(picked: readonly PickedFile[], questionsPath: string): string {
  const zip = picked.find((f) => ext(f.path) === 'zip');
  if (zip) return baseName(zip.path).replace(/\.zip$/i, '');
  const top = picked[0]?.path.split(/[\\/]/);
  if (top && top.length > 1) return top[0] as string;
  return baseName(questionsPath).replace(/\.jsonl?$/i, '');
}

/** Reads the picked files as a suite, or says what is wrong with them. */
export async function readSuite(picked: readonly PickedFile[]): Promise<Suite | string> {
  const all = await expand(picked);
  if (typeof all === 'string') return all;
  const jsonl = all.filter((f) => ext(f.path) === 'jsonl');
  const texts = await Promise.all(jsonl.map(async (f) => ({ f, text: await f.blob.text() })));
  const data = new Map<string, Blob>();
  for (const f of all) if (ext(f.path) !== 'jsonl') data.set(baseName(f.path), f.blob);
  const findFile = (name: string): string | null => {
    const b = baseName(name);
    if (data.has(b)) return b;
    const lower = b.toLowerCase();
    return [...data.keys()].find((k) => k.toLowerCase() === lower) ?? null;
  };

  const qFile = texts.find((t) => looksLikeDabenchQuestions(t.text));
  const lFile = texts.find((t) => looksLikeDabenchLabels(t.text));
  if (qFile) {
    if (!lFile) return 'This looks like DABench questions, but no labels file (JSONL with id and common_answers) was picked with them.';
    const qs = parseQuestions(qFile.text);
    if (!qs.ok) return qs.error;
    const ls = parseLabels(lFile.text);
    if (!ls.ok) return ls.error;
    const labels = new Map(ls.value.map((l) => [l.id, l]));
    const items: SuiteItem[] = [];
    const skipped: Suite['skipped'] = [];
    const used = new Set<string>();
    for (const q of qs.value) {
      const label = labels.get(q.id);
      const file = findFile(q.file_name);
      if (!label) skipped.push({ id: q.id, reason: 'no label' });
      else if (!file) skipped.push({ id: q.id, reason: `no file ${q.file_name}` });
      else {
        used.add(file);
        items.push({ format: 'dabench', id: q.id, level: q.level, concepts: q.concepts, files: [file], question: q, label });
      }
    }
    if (items.length === 0) return `None of the ${qs.value.length} questions can run: ${skipped.slice(0, 3).map((s) => `${s.id}: ${s.reason}`).join('; ')}.`;
    return { name: nameOf(picked, qFile.f.path), format: 'dabench', items, files: Object.fromEntries([...used].map((k) => [k, data.get(k) as Blob])), skipped };
  }

  const gFile = texts.find((t) => looksLikeGeneric(t.text));
  if (!gFile) {
    return jsonl.length === 0
      ? 'No question file: pick a questions JSONL (DABench or the generic format) with its data files, their folder, or a zip of them.'
      : 'The JSONL files are neither DABench questions (id, question, format, file_name) nor the generic format (question, kind, expected).';
  }
  const gs = parseGeneric(gFile.text);
  if (!gs.ok) return `${baseName(gFile.f.path)}: ${gs.error}`;
  const items: SuiteItem[] = [];
  const skipped: Suite['skipped'] = [];
  const used = new Set<string>();
  for (const q of gs.value) {
    const found = q.files.map((f) => ({ f, at: findFile(f) }));
    const missing = found.filter((x) => x.at === null).map((x) => x.f);
    if (missing.length) {
      skipped.push({ id: q.id, reason: `no file ${missing.join(', ')}` });
      continue;
    }
    const files = found.map((x) => x.at as string);
    for (const f of files) used.add(f);
    items.push({ format: 'generic', id: q.id, level: q.level, concepts: q.concepts, files, question: q });
  }
  if (items.length === 0) return `None of the ${gs.value.length} questions can run: ${skipped.slice(0, 3).map((s) => `${s.id}: ${s.reason}`).join('; ')}.`;
  return { name: nameOf(picked, gFile.f.path), format: 'generic', items, files: Object.fromEntries([...used].map((k) => [k, data.get(k) as Blob])), skipped };
}
