/**
 * Entry of the parse worker: imports (data dictionaries, notebooks) are parsed here, off the
 * page's main thread (issue 37: a 5 MB dictionary blocked the page for seconds). It holds no
 * state; the page ends it to cancel a parse and starts a new one for the next.
 */
import type { Endpoint } from '../../protocol/rpc';
import type { ParseEvent, ParseRequests } from '../../protocol/parse';
import { serve } from '../../protocol/rpcServer';
import { parseHandlers } from './jobs';

const endpoint = self as unknown as Endpoint;
let emit: (event: ParseEvent) => void = () => {};
const server = serve<ParseRequests, ParseEvent>(endpoint, parseHandlers((event) => emit(event)));
emit = server.emit;
