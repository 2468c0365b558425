import { describe, expect, it } from 'vitest';
import type { GatewayReplayEntry } from '../storage/index.js';
import { HISTORY_MARGIN_MS, historyStart } from './recovery.js';

const SAVED_AT = 1_800_000_000_000;

const entry = (seq: number, publishedAt: number | null): GatewayReplayEntry => ({
  sessionId: 's',
  seq,
  type: 'MESSAGE_CREATE',
  data: '{}',
  source: publishedAt === null ? null : { id: `n.${String(seq)}`, publishedAt },
});

describe('historyStart', () => {
  it('reads from a margin before the session was saved when nothing it stored came by the bus', () => {
    expect(historyStart([], SAVED_AT)).toBe(SAVED_AT - HISTORY_MARGIN_MS);
    expect(historyStart([entry(1, null)], SAVED_AT)).toBe(SAVED_AT - HISTORY_MARGIN_MS);
  });

  it('reads from a margin before the newest stored dispatch, never before the oldest', () => {
    const newest = SAVED_AT + 60_000;
    const stored = [entry(1, SAVED_AT + 1000), entry(2, null), entry(3, newest), entry(4, null)];
    expect(historyStart(stored, SAVED_AT)).toBe(newest - HISTORY_MARGIN_MS);
    const close = [entry(1, newest - 10), entry(2, newest)];
    expect(historyStart(close, SAVED_AT)).toBe(newest - 10);
  });
});
