import type { Redis } from 'ioredis';
import type { VoiceCallClaim, VoiceNodeEntry, VoiceNodeStore } from '../types.js';
import { gcGraceMs, redisKey } from './keys.js';

/** One hash of every node: endpoint → JSON {l: load, e: expires at by the caller's clock}. */
const NODES_KIND = 'voice-nodes';
const NODES_KEY = 'all';
/** One hash per claimed call {n: endpoint, e: expires at}. */
const CALL_KIND = 'voice-call';
/** The most nodes one listing reads (a deployment has a handful). */
const MAX_NODES = 10_000;

interface StoredNode {
  l: number;
  e: number;
}

function parseNode(text: string): StoredNode | null {
  try {
    const value = JSON.parse(text) as Partial<StoredNode>;
    return typeof value.l === 'number' && typeof value.e === 'number'
      ? { l: value.l, e: value.e }
      : null;
  } catch {
    return null;
  }
}

/** The voice nodes of every process on the same Redis and prefix. */
export class RedisVoiceNodeStore implements VoiceNodeStore {
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(client: Redis, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
  }

  get #nodesKey() {
    return redisKey(this.#prefix, NODES_KIND, NODES_KEY);
  }

  #callKey(callKey: string) {
    return redisKey(this.#prefix, CALL_KIND, callKey);
  }

  async announce(node: VoiceNodeEntry, at: { nowMs: number; ttlMs: number }): Promise<void> {
    const entry: StoredNode = { l: node.load, e: at.nowMs + at.ttlMs };
    await this.#client
      .multi()
      .hset(this.#nodesKey, node.endpoint, JSON.stringify(entry))
      // The hash goes when every node stopped announcing.
      .pexpire(this.#nodesKey, at.ttlMs + gcGraceMs(at.ttlMs))
      .exec();
  }

  async withdraw(endpoint: string): Promise<void> {
    await this.#client.hdel(this.#nodesKey, endpoint);
  }

  async list(nowMs: number): Promise<VoiceNodeEntry[]> {
    const all = await this.#client.hgetall(this.#nodesKey);
    const live: VoiceNodeEntry[] = [];
    const gone: string[] = [];
    for (const [endpoint, text] of Object.entries(all).slice(0, MAX_NODES)) {
      const node = parseNode(text);
      if (node === null || node.e <= nowMs) gone.push(endpoint);
      else live.push({ endpoint, load: node.l });
    }
    if (gone.length > 0) await this.#client.hdel(this.#nodesKey, ...gone);
    return live.sort((a, b) => a.endpoint.localeCompare(b.endpoint));
  }

  async holder(callKey: string, nowMs: number): Promise<string | null> {
    const [endpoint = null, expires = null] = await this.#client.hmget(
      this.#callKey(callKey),
      'n',
      'e',
    );
    return endpoint !== null && expires !== null && Number(expires) > nowMs ? endpoint : null;
  }

  claim(claim: VoiceCallClaim, replacing: string | null = null): Promise<string> {
    return this.#client.guildhallClaim(
      this.#callKey(claim.callKey),
      claim.nowMs,
      claim.endpoint,
      claim.nowMs + claim.ttlMs,
      claim.ttlMs + gcGraceMs(claim.ttlMs),
      replacing ?? '',
    );
  }

  async refresh(claim: VoiceCallClaim): Promise<boolean> {
    const done = await this.#client.guildhallRefreshClaim(
      this.#callKey(claim.callKey),
      claim.nowMs,
      claim.endpoint,
      claim.nowMs + claim.ttlMs,
      claim.ttlMs + gcGraceMs(claim.ttlMs),
    );
    return done === 1;
  }

  async release(callKey: string, endpoint: string): Promise<void> {
    await this.#client.guildhallReleaseClaim(this.#callKey(callKey), endpoint);
  }
}
