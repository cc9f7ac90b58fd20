/// <reference lib="webworker" />
// The page's decode worker: Arrow IPC → grid rows (protocol/decode.ts).
import type { DecodeRequest } from '../../protocol/decode';
import { runDecode } from './decodeJob';

self.onmessage = (ev: MessageEvent<DecodeRequest>) => runDecode(ev.data, (reply) => self.postMessage(reply));
