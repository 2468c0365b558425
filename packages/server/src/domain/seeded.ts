/**
 * @module domain/seeded: where new ids and credentials come from. Normally the clock and the
 * system's randomness; while a world loads (control/world.ts), a stream that follows from the
 * world's seed and the name of what is being made, so the same world gets the same ids and
 * tokens in every process, and adding one thing to a world leaves the others' ids as they were.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { makeSnowflake } from '@guildhall/protocol';
import type { IdGenerator } from './snowflakes.js';

/** The randomness credentials (tokens, secrets, signing keys) are made from. */
export interface Entropy {
  /** `size` bytes. */
  bytes(size: number): Buffer;
  /** The time (ms) a token made at `nowMs` carries in its middle part. */
  tokenTime(nowMs: number): number;
}

/** Where ids and credentials come from. */
export interface SeedSource {
  ids: IdGenerator;
  entropy: Entropy;
}

export const systemEntropy: Entropy = {
  bytes: (size) => randomBytes(size),
  tokenTime: (nowMs) => nowMs,
};

/** 2024-01-01T00:00:00Z: seeded ids fall in the 180 days after it. */
export const SEEDED_EPOCH_MS = Date.UTC(2024, 0, 1);
const SEEDED_SPAN_MS = 180 * 24 * 3600 * 1000;
const MAX_INCREMENT = 0xfff;

/**
 * The ids and bytes that follow from `seed` and `label` (say `guild:main`) alone. Ids are
 * snowflakes of a moment in {@link SEEDED_EPOCH_MS}'s 180 days with a worker and process drawn
 * from the hash too, increasing within the stream; two labels share a moment, worker and
 * process with odds of about one in 2^43.
 */
export function seededSource(seed: string, label: string): SeedSource {
  const digest = createHash('sha256').update(`${seed}\0${label}`).digest();
  const baseMs = SEEDED_EPOCH_MS + (digest.readUIntBE(0, 6) % SEEDED_SPAN_MS);
  const workerId = digest.readUInt8(6) & 31;
  const processId = digest.readUInt8(7) & 31;
  let count = 0;
  const ids: IdGenerator = () => {
    const k = count;
    count += 1;
    return makeSnowflake({
      timestampMs: baseMs + Math.floor(k / (MAX_INCREMENT + 1)),
      workerId,
      processId,
      increment: k & MAX_INCREMENT,
    });
  };
  const key = createHash('sha256').update(digest).update('bytes').digest();
  let block = 0;
  let pending = Buffer.alloc(0);
  const bytes = (size: number) => {
    while (pending.length < size) {
      const next = createHmac('sha256', key).update(String(block)).digest();
      block += 1;
      pending = Buffer.concat([pending, next]);
    }
    const out = pending.subarray(0, size);
    pending = pending.subarray(size);
    return Buffer.from(out);
  };
  return { ids, entropy: { bytes, tokenTime: () => baseMs } };
}

/**
 * The app's ids and entropy: `defaults`, except inside `run(source, work)`, where `work` (and
 * everything it awaits) draws from `source`. Requests served meanwhile keep the defaults.
 */
export function createSeedSwitch(defaults: SeedSource) {
  const current = new AsyncLocalStorage<SeedSource>();
  const ids: IdGenerator = () => (current.getStore() ?? defaults).ids();
  const entropy: Entropy = {
    bytes: (size) => (current.getStore() ?? defaults).entropy.bytes(size),
    tokenTime: (nowMs) => (current.getStore() ?? defaults).entropy.tokenTime(nowMs),
  };
  return {
    ids,
    entropy,
    run<T>(source: SeedSource, work: () => Promise<T>): Promise<T> {
      return current.run(source, work);
    },
  };
}
