/**
 * Two nodes of one deployment for a block of tests: two servers on one database (and whatever
 * else the block gives them to share: a bus, a Redis prefix), started before the block's first
 * test and closed after its last. Each test keeps to its own people, apps and guilds, so the
 * tests of a block share the pair.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Driver } from './drivers.js';
import { acquireSchema, releaseSchema } from './postgres.js';
import { startTestServer, type TestServer, type TestServerOptions } from './testServer.js';

/** What a pair shares, and the steps that remove it once both nodes are closed. */
export interface NodePairSetup {
  options: TestServerOptions;
  /** What node `a` is started with besides `options` (a bus it sees through a wrapper). */
  a?: TestServerOptions;
  cleanup: (() => Promise<void>)[];
}

/** Two nodes, and what closes them and removes what they shared. */
export interface NodePair {
  a: TestServer;
  b: TestServer;
  close: () => Promise<void>;
}

/**
 * A database two nodes open together: a migrated schema of the worker's pool on PostgreSQL
 * (emptied again after), a file in a temporary folder on SQLite.
 */
export async function nodesDatabase(driver: Driver): Promise<NodePairSetup> {
  if (driver === 'postgres') {
    const schema = acquireSchema();
    return {
      options: { storage: driver, database: schema },
      cleanup: [() => releaseSchema(schema)],
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'guildhall-nodes-'));
  return {
    options: { storage: driver, database: join(dir, 'guildhall.db') },
    cleanup: [() => rm(dir, { recursive: true, force: true })],
  };
}

/**
 * Starts nodes `a` and `b` with what `made` gives them: process ids 0 and 1, so that they mint
 * ids in one database. `close` closes them, then removes what they shared; a pair that fails to
 * start has done so before it throws.
 */
export async function openNodePair(made: NodePairSetup): Promise<NodePair> {
  const cleanup = [...made.cleanup];
  const close = async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  };
  const open = async (processId: number, own: TestServerOptions = {}) => {
    const server = await startTestServer({ ...made.options, ...own, processId });
    cleanup.push(() => server.close());
    return server;
  };
  try {
    const a = await open(0, made.a);
    const b = await open(1);
    return { a, b, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The block's pair ({@link openNodePair}) with what `setup` makes (null: none, for a block whose
 * tests skip), started before the block's first test and closed after its last.
 */
export function useNodePair(
  setup: () => Promise<NodePairSetup | null>,
): () => { a: TestServer; b: TestServer } {
  let pair: NodePair | undefined;
  beforeAll(async () => {
    const made = await setup();
    if (made !== null) pair = await openNodePair(made);
  });
  afterAll(async () => {
    const closing = pair;
    pair = undefined;
    await closing?.close();
  });
  return () => {
    if (pair === undefined) throw new Error('no nodes: outside their describe block');
    return pair;
  };
}
