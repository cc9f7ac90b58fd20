/** What the bench's page instrumentation (app.mjs, wasm.mjs) adds to the window it measures. */
interface Window {
  __benchLongTasks: { start: number; duration: number }[];
  __benchPhases: { t: number; loadId: unknown; phase: string }[];
  /** imports.mjs: the dictionary editor's progress steps as they changed, and their observer. */
  __benchImportSteps: { step: string; at: number }[];
  __benchImportObserver?: MutationObserver;
}
