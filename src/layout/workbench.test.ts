import { describe, expect, it } from 'vitest';
import { isWorkView, readPaneSize, restoredPaneSize, shownWork, sizeAfterPick } from './workbench';

describe('the work pane', () => {
  it('keeps its last work view while the place is the conversation', () => {
    expect(shownWork('ask', 'sql')).toBe('sql');
    expect(shownWork('notebook', 'sql')).toBe('notebook');
    expect(isWorkView('ask')).toBe(false);
  });

  it('opens again when a work view is picked while collapsed, and gives way to the conversation when maximised', () => {
    expect(sizeAfterPick('collapsed', 'python')).toBe('normal');
    expect(sizeAfterPick('maximised', 'python')).toBe('maximised');
    expect(sizeAfterPick('maximised', 'ask')).toBe('normal');
    expect(sizeAfterPick('collapsed', 'ask')).toBe('collapsed');
  });

  it('reads a stored size, and anything else as normal', () => {
    expect(readPaneSize('maximised')).toBe('maximised');
    expect(readPaneSize('collapsed')).toBe('collapsed');
    expect(readPaneSize('huge')).toBe('normal');
    expect(readPaneSize(null)).toBe('normal');
  });
});

describe('a new visit', () => {
  it('starts with a maximised pane at its normal size, so the question box is on screen; a collapsed pane stays collapsed', () => {
    expect(restoredPaneSize('maximised')).toBe('normal');
    expect(restoredPaneSize('collapsed')).toBe('collapsed');
    expect(restoredPaneSize(null)).toBe('normal');
  });
});
