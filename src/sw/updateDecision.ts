/**
 * When the page offers "A new version is available", and what it does when its service worker
 * changes. Pure, so the rules (never on the first install, never a reload the user did not ask
 * for) are tested without a browser.
 */

export interface UpdateFacts {
  /** A new worker is installed and waiting for the old one to let go. */
  waiting: boolean;
  /**
   * The page is controlled by an older worker. On the first visit nothing controls it yet, and
   * the new worker is simply the first one: there is nothing to update from.
   */
  controlled: boolean;
}

export function shouldOfferUpdate(facts: UpdateFacts): boolean {
  return facts.waiting && facts.controlled;
}

export type ControllerChangeAction =
  /** The user clicked Reload in this tab: the new worker now controls it, so load the new version. */
  | 'reload'
  /** Another tab accepted the update: this tab runs old code under the new worker; offer a reload. */
  | 'offer'
  /** The first worker took control (first visit); the isolation step decides about reloading. */
  | 'ignore';

export interface ControllerChangeFacts {
  /** This tab's user clicked Reload on the update notice. */
  accepted: boolean;
  /** A worker controlled the page before this change. */
  wasControlled: boolean;
}

export function afterControllerChange(facts: ControllerChangeFacts): ControllerChangeAction {
  if (facts.accepted) return 'reload';
  return facts.wasControlled ? 'offer' : 'ignore';
}
