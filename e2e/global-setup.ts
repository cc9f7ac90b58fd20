/** Writes the fixture corpus before the suite runs (idempotent; the large CSV is made on demand). */
import { makeFixtures } from '../scripts/make-bad-fixtures.mjs';

export default async function globalSetup(): Promise<void> {
  await makeFixtures();
}
