/**
 * The dataset list the data worker pushes to the agent's port (a `datasets` event on connecting
 * and on every change), kept here so a run does not ask for it again: `list` is answered from
 * the pushed copy, also while a dataset's load-report checks run (the table is usable; the model
 * is told they are running, and their findings arrive with a later push).
 */
import type { DataEvent, DataPeerRequests, DatasetInfo } from '../../../protocol/data';
import type { CallOptions } from '../../../protocol/rpcClient';
import type { DataClient } from './workerHost';

export class PushedDatasets {
  #list: DatasetInfo[] | undefined;

  onEvent(event: DataEvent): void {
    if (event.type === 'datasets') this.#list = event.datasets;
    // One entry changed after the list (a big load's checks are done): the copy follows it.
    if (event.type === 'dataset') this.#list = this.#list?.map((d) => (d.name === event.dataset.name ? event.dataset : d));
  }

  /** A client that answers `list` from the pushed copy and sends every other request on. */
  over(data: DataClient): DataClient {
    const pushed = () => this.#list;
    return {
      call<K extends keyof DataPeerRequests & string>(type: K, payload: DataPeerRequests[K]['req'], transfer?: Transferable[], options?: CallOptions): Promise<DataPeerRequests[K]['res']> {
        const list = pushed();
        if (type === 'list' && list) return Promise.resolve(structuredClone(list) as DataPeerRequests[K]['res']);
        return data.call(type, payload, transfer, options);
      },
    };
  }
}
