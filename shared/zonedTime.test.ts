import { describe, expect, it } from 'vitest';
import { Field, Schema, Table, TimestampMicrosecond, Timestamp, TimeUnit, makeData, RecordBatch, Struct, tableToIPC } from 'apache-arrow';
import { isTimeZone, zonedTimestamp } from './zonedTime';
import { decodeIpc } from './arrowDecode';

const at = Date.UTC(2024, 2, 10, 21, 30, 0); // 2024-03-10 21:30:00 UTC

describe('zoned timestamps', () => {
  it('writes the wall time in the zone with its offset, UTC as +00:00', () => {
    expect(zonedTimestamp(at, 'UTC')).toBe('2024-03-10 21:30:00+00:00');
    expect(zonedTimestamp(at, 'Europe/Paris')).toBe('2024-03-10 22:30:00+01:00');
    expect(zonedTimestamp(at, 'America/New_York')).toBe('2024-03-10 17:30:00-04:00');
    expect(zonedTimestamp(at + 250, 'Asia/Kolkata')).toBe('2024-03-11 03:00:00.250+05:30');
    expect(zonedTimestamp(at, 'Not/AZone')).toBe('2024-03-10 21:30:00+00:00');
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Not/AZone')).toBe(false);
  });

  it('decodes TIMESTAMP WITH TIME ZONE in the chosen zone, UTC-stored columns with +00:00, and plain ones as before', () => {
    const zoned = new Field('zoned', new Timestamp(TimeUnit.MICROSECOND, 'UTC'), true);
    const utc = new Field('utc', new TimestampMicrosecond(), true);
    const plain = new Field('plain', new TimestampMicrosecond(), true);
    const schema = new Schema([zoned, utc, plain]);
    const us = BigInt(at) * 1000n;
    const child = (f: Field) => makeData({ type: f.type, length: 1, nullCount: 0, data: new BigInt64Array([us]) });
    const data = makeData({ type: new Struct(schema.fields), length: 1, nullCount: 0, children: [child(zoned), child(utc), child(plain)] });
    const ipc = tableToIPC(new Table(schema, [new RecordBatch(schema, data)]), 'stream');
    expect(decodeIpc(ipc, { timeZone: 'Europe/Paris', utcColumns: ['utc'] }).rows).toEqual([['2024-03-10 22:30:00+01:00', '2024-03-10 21:30:00+00:00', '2024-03-10 21:30:00']]);
    // Without options (the agent's samples): the zoned column in UTC, with its offset.
    expect(decodeIpc(ipc).rows).toEqual([['2024-03-10 21:30:00+00:00', '2024-03-10 21:30:00', '2024-03-10 21:30:00']]);
  });
});
