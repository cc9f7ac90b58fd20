/**
 * The "A new version is available" notice's state, shared by the service-worker glue
 * (register.ts, which offers) and the notice component (which accepts).
 */
export class UpdateNotice {
  available = $state(false);
  /** Set once the user clicked Reload, so a second click does nothing. */
  accepted = $state(false);
  #accept: () => void = () => {};

  /** Shows the notice; `accept` runs when the user clicks Reload. */
  offer(accept: () => void): void {
    this.#accept = accept;
    this.available = true;
  }

  accept(): void {
    if (this.accepted) return;
    this.accepted = true;
    this.#accept();
  }
}

export const updateNotice = new UpdateNotice();
