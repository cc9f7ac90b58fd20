/**
 * What the rail and the work views do with a dataset or a conversation the user picked: the
 * place in the URL changes (PlaceHistory), the layout follows (WorkbenchState), and a failure
 * becomes a notice. Built once by the composition root.
 */
import { messageOf } from '../../shared/errors';
import type { AgentClient } from '../chat/AgentClient.svelte';
import type { DataClient } from '../data/DataClient.svelte';
import type { PlaceHistory } from '../layout/PlaceHistory.svelte';
import type { WorkbenchState } from '../layout/WorkbenchState.svelte';
import type { DatasetInfo } from '../../protocol/data';

export interface ActionNotices {
  actionError: string | null;
}

export class WorkbenchActions {
  /** A column picked in the rail: its dataset's Profile opens on it. */
  columnFocus = $state<{ dataset: string; column: string; seq: number } | null>(null);
  /** The dataset the Data view shows: the place's, else the first. */
  readonly selected: DatasetInfo | null = $derived.by(() => this.deps.data.datasets.find((d) => d.name === this.deps.places.place.dataset) ?? this.deps.data.datasets[0] ?? null);

  constructor(private readonly deps: { data: DataClient; agent: AgentClient; places: PlaceHistory; layout: WorkbenchState; notices: ActionNotices }) {}

  select(name: string, mode: 'push' | 'replace' = 'push'): void {
    this.deps.places.go({ dataset: name }, mode);
  }

  /** A dataset picked in the rail: the Data view shows it. */
  show(name: string): void {
    // The pane that stepped aside for a chart comes back for the dataset the user asked for.
    this.deps.layout.yielded = false;
    this.deps.places.go({ dataset: name, view: 'data' });
  }

  showColumn(dataset: string, column: string): void {
    this.select(dataset);
    this.columnFocus = { dataset, column, seq: (this.columnFocus?.seq ?? 0) + 1 };
    // The Profile brings the column's card into view itself once it is drawn; scrolling the Data
    // section here as well would race it (a cached profile is drawn before the next frame).
    this.deps.layout.goView('data', 'replace');
  }

  /** Files loaded from a drop or the menu: the first becomes the one shown. */
  loaded(names: string[]): void {
    if (names[0]) this.show(names[0]);
  }

  async openConversation(threadId: string): Promise<void> {
    await this.deps.agent.openThread(threadId);
    this.deps.layout.goView('ask');
  }

  /** Null when renamed, else why not (the rail shows it beside the name). */
  async rename(from: string, to: string): Promise<string | null> {
    try {
      await this.deps.data.rename(from, to);
      if (this.deps.places.place.dataset === from || this.selected?.name === from) this.select(to, 'replace');
      return null;
    } catch (e) {
      return messageOf(e);
    }
  }

  async remove(name: string): Promise<void> {
    try {
      await this.deps.data.remove(name);
    } catch (e) {
      this.deps.notices.actionError = `Could not remove ${name}: ${messageOf(e)}`;
    }
  }
}
