// Writes the benchmark's 1,000,000-row CSV once into bench/.cache/. Deterministic (seeded PRNG,
// fixed epoch) so every run and every machine ingests byte-identical input.
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), '.cache');
export const CSV_ROWS = 1_000_000;
// Bump when the generator's output changes so stale caches are rebuilt.
const GENERATOR_VERSION = 1;
const FILE_NAME = 'bench_rows.csv';

const CATEGORIES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const WORDS = [
  'data', 'table', 'query', 'result', 'value', 'sample', 'browser', 'worker', 'column', 'filter',
  'group', 'average', 'signal', 'noise', 'river', 'mountain', 'quiet', 'rapid', 'orange', 'violet',
  'seven', 'eleven', 'north', 'south', 'window', 'ledger', 'harbor', 'meadow', 'copper', 'silver',
];
const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(2015, 0, 1);

/** mulberry32: tiny, fast, good enough for synthetic data, and reproducible. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function line(i, rnd) {
  const qty = Math.floor(rnd() * 1000);
  const price = (rnd() * 500).toFixed(2);
  const score = (rnd() * 2 - 1).toFixed(6);
  const category = CATEGORIES[Math.floor(rnd() * CATEGORIES.length)];
  const date = new Date(EPOCH + Math.floor(rnd() * 3650) * DAY_MS).toISOString().slice(0, 10);
  const nWords = 4 + Math.floor(rnd() * 6);
  const words = [];
  for (let w = 0; w < nWords; w++) words.push(WORDS[Math.floor(rnd() * WORDS.length)]);
  // Quoted, with a comma inside, so the CSV sniffer has to handle quoting like real exports.
  return `${i},${qty},${price},${score},${category},${date},"${words.join(' ')}, no. ${i % 97}"\n`;
}

/**
 * Returns the CSV's path, generating it when missing or produced by another generator version.
 * The same generator makes the bigger-than-memory file (`rows`, `fileName`): its first rows are
 * the bench CSV's; the scale matrix writes its 1 GB file into a temporary `dir` and deletes it.
 */
export async function ensureCsv({ rows = CSV_ROWS, fileName = FILE_NAME, dir = CACHE_DIR } = {}) {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, fileName);
  const stamp = `${path}.meta.json`;
  const expected = JSON.stringify({ version: GENERATOR_VERSION, rows });
  if (existsSync(path) && existsSync(stamp) && readFileSync(stamp, 'utf8') === expected) return path;

  const t0 = performance.now();
  const rnd = prng(20261122);
  const out = createWriteStream(path);
  out.write('id,qty,price,score,category,event_date,note\n');
  const CHUNK = 10_000;
  for (let start = 0; start < rows; start += CHUNK) {
    let buf = '';
    for (let i = start; i < Math.min(start + CHUNK, rows); i++) buf += line(i, rnd);
    if (!out.write(buf)) await new Promise((resolve) => out.once('drain', () => resolve(undefined)));
  }
  await /** @type {Promise<void>} */ (new Promise((resolve, reject) => out.end((/** @type {Error | null | undefined} */ err) => (err ? reject(err) : resolve()))));
  writeFileSync(stamp, expected);
  const mb = statSync(path).size / 1e6;
  console.log(`generated ${path} (${mb.toFixed(1)} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await ensureCsv());
}
