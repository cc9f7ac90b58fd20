/**
 * A scrubber for the page's own stores (notebook, gauntlet runs): every key the user entered is
 * taken out of a value before it is written — model code opened in the notebook, or an answer
 * the gauntlet keeps, may quote a key an endpoint echoed.
 */
import { SecretScrubber } from '../../shared/secrets';

/** `secrets()` is read at each call, so a key entered later is scrubbed from then on. */
export function keyScrub(secrets: () => string[]): <T>(value: T) => T {
  const scrubber = new SecretScrubber();
  return <T>(value: T): T => {
    for (const s of secrets()) scrubber.add(s);
    return scrubber.scrubValue(value);
  };
}
