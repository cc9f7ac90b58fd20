/** The message of anything thrown: an Error's message, else its text. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
