/**
 * Whether a dataset added while a model is configured gets its dictionary drafted on its own (one
 * model call each). On by default; kept in this browser (localStorage). Many datasets added at
 * once are asked about first either way (KnowledgeClient.watch).
 */

export const AUTO_DRAFT_KEY = 'dataseer:autoDraft';

function stored(): boolean {
  try {
    return globalThis.localStorage?.getItem(AUTO_DRAFT_KEY) !== 'off';
  } catch {
    return true;
  }
}

class AutoDraftSetting {
  on = $state(stored());

  set(on: boolean): void {
    this.on = on;
    try {
      if (on) globalThis.localStorage?.removeItem(AUTO_DRAFT_KEY);
      else globalThis.localStorage?.setItem(AUTO_DRAFT_KEY, 'off');
    } catch {
      // Kept for this tab only.
    }
  }
}

export const autoDraftSetting = new AutoDraftSetting();
