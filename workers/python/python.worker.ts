/**
 * Entry of the Python worker. The message endpoint is captured here, then `postMessage` is taken
 * off the global scope so code that escapes into JS cannot speak the protocol to the page.
 */
import type { Endpoint } from '../../protocol/rpc';
import { serve } from '../../protocol/rpcServer';
import type { PythonEvent, PythonRequests } from '../../protocol/python';
import { createEngine } from './pyodideEngine';
import { removeMember } from './sandbox';

const scope = globalThis;
const worker = self as unknown as DedicatedWorkerGlobalScope;
const post = worker.postMessage.bind(worker);
// Bound now: the sealed scope shadows addEventListener (code holding the global must not watch the
// page's messages), while the protocol keeps its own listener.
const listen = scope.addEventListener.bind(scope);
const unlisten = scope.removeEventListener.bind(scope);
const endpoint: Endpoint = {
  postMessage: (message, transfer) => post(message, transfer ?? []),
  addEventListener: (type, listener) => listen(type, listener),
  removeEventListener: (type, listener) => unlisten(type, listener),
};
removeMember(scope, 'postMessage');

let emit: (event: PythonEvent) => void = () => {};
const server = serve<PythonRequests, PythonEvent>(endpoint, createEngine({ scope, emit: (event) => emit(event) }));
emit = server.emit;
