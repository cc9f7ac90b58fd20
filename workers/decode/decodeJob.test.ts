import { describe, expect, it } from 'vitest';
import { Int32, Table, tableToIPC, vectorFromArray } from 'apache-arrow';
import type { DecodeReply } from '../../protocol/decode';
import { runDecode } from './decodeJob';

describe('runDecode', () => {
  it('posts the rows in chunks of about the cells asked, then done', () => {
    const columns = Object.fromEntries(Array.from({ length: 10 }, (_, c) => [`c${c}`, vectorFromArray(Array.from({ length: 25 }, (_, r) => r * 10 + c), new Int32())]));
    const replies: DecodeReply[] = [];
    runDecode({ id: 7, ipc: tableToIPC(new Table(columns), 'stream'), options: {} }, (r) => replies.push(r), 100);
    const chunks = replies.filter((r) => r.kind === 'rows');
    expect(chunks.map((r) => r.rows.length)).toEqual([10, 10, 5]);
    expect(chunks.flatMap((r) => r.rows)[24]).toEqual(Array.from({ length: 10 }, (_, c) => 240 + c));
    expect(replies.at(-1)).toEqual({ id: 7, kind: 'done' });
  });

  it('says what failed, as a value', () => {
    const replies: DecodeReply[] = [];
    const whole = tableToIPC(new Table({ a: vectorFromArray([1, 2, 3], new Int32()) }), 'stream');
    // Cut inside the record batch's body: the schema read, the batch not.
    runDecode({ id: 1, ipc: whole.subarray(0, whole.length - 20), options: {} }, (r) => replies.push(r));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ id: 1, kind: 'error' });
  });
});
