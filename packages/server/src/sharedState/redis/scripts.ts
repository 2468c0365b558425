/**
 * The Lua scripts of the Redis stores, each run atomically by Redis (EVALSHA through ioredis's
 * defineCommand). Every script takes the caller's clock (`now`, epoch ms) and decides windows
 * and expiries by it, as the memory stores do; the key's TTL (`now`-independent, in Redis's own
 * time) only removes keys nobody asks for any more, a grace period after they expire.
 *
 * Why scripts and not rate-limiter-flexible: its RateLimiterRedis times windows by Redis's clock
 * (SET NX PX, then PTTL), so a window cannot follow the injected Clock that the rate limiter's
 * X-RateLimit-Reset headers, the session start limit and every test use; it counts refused
 * requests too, and has no counterpart of the identify reservation, which queues into later
 * windows instead of refusing.
 */
import type { Redis, Result } from 'ioredis';

/**
 * Fixed windows, checked in a chain: KEYS one hash {c: count, r: reset at} per step; ARGV now,
 * then per step: counts (1: consume, 0: peek), limit, windowMs, gcMs. Each step refuses when its
 * window is full, else a counting step counts; the first refusal ends the chain and changes
 * nothing more. Returns {allowed (1/0), count, resetAt} per step reached, flattened.
 */
const CHAIN = `
local now = tonumber(ARGV[1])
local out = {}
for i = 1, #KEYS do
  local arg = 2 + (i - 1) * 4
  local limit = tonumber(ARGV[arg + 1])
  local state = redis.call('HMGET', KEYS[i], 'c', 'r')
  local count = tonumber(state[1])
  local reset = tonumber(state[2])
  if count == nil or reset == nil or reset <= now then
    count = 0
    reset = now + tonumber(ARGV[arg + 2])
  end
  if count >= limit then
    table.insert(out, 0)
    table.insert(out, count)
    table.insert(out, reset)
    return out
  end
  if ARGV[arg] == '1' then
    count = count + 1
    redis.call('HSET', KEYS[i], 'c', count, 'r', reset)
    if count == 1 then
      redis.call('PEXPIRE', KEYS[i], reset - now + tonumber(ARGV[arg + 3]))
    end
  end
  table.insert(out, 1)
  table.insert(out, count)
  table.insert(out, reset)
end
return out
`;

/**
 * Identify reservation: KEYS[1] a hash {s: window start, u: used}; ARGV perWindow, windowMs,
 * now, gcMs. A full window passes the reservation to the next one. Returns its start.
 */
const RESERVE = `
local per = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 's', 'u')
local start = tonumber(state[1])
local used = tonumber(state[2])
if start == nil or used == nil or start + window <= now then
  start = now
  used = 0
end
if used >= per then
  start = start + window
  used = 0
end
used = used + 1
redis.call('HSET', KEYS[1], 's', start, 'u', used)
redis.call('PEXPIRE', KEYS[1], start + window - now + tonumber(ARGV[4]))
return start
`;

/**
 * Presence refresh: KEYS[1] a hash {v: JSON, e: expires at}; ARGV now, new expiry, key TTL.
 * An entry already expired by the caller's clock stays expired. Returns 1 when refreshed.
 */
const REFRESH = `
local expires = tonumber(redis.call('HGET', KEYS[1], 'e'))
if expires == nil or expires <= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'e', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/**
 * Voice call claim: KEYS[1] a hash {n: node endpoint, e: expires at}; ARGV now, endpoint, new
 * expiry, key TTL, the endpoint of a dead holder to replace ('' for none). Set if absent, expired
 * or held by that dead node; returns the holder afterwards.
 */
const CLAIM = `
local holder = redis.call('HGET', KEYS[1], 'n')
local expires = tonumber(redis.call('HGET', KEYS[1], 'e'))
if holder and expires and expires > tonumber(ARGV[1]) and holder ~= ARGV[5] then
  return holder
end
redis.call('HSET', KEYS[1], 'n', ARGV[2], 'e', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return ARGV[2]
`;

/**
 * Voice call claim refresh: KEYS[1] as CLAIM's; ARGV now, endpoint, new expiry, key TTL. Only
 * the live holder moves it. Returns 1 when refreshed.
 */
const REFRESH_CLAIM = `
local holder = redis.call('HGET', KEYS[1], 'n')
local expires = tonumber(redis.call('HGET', KEYS[1], 'e'))
if holder ~= ARGV[2] or expires == nil or expires <= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'e', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

/** Voice call release: KEYS[1] as CLAIM's; ARGV the endpoint. Only its holder releases it. */
const RELEASE_CLAIM = `
if redis.call('HGET', KEYS[1], 'n') == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** `numberOfKeys`, the keys, then `nowMs` and four values per key (see CHAIN). */
    guildhallChain(
      numberOfKeys: number,
      ...keysThenArgs: (string | number)[]
    ): Result<number[], Context>;
    guildhallReserve(
      key: string,
      perWindow: number,
      windowMs: number,
      nowMs: number,
      gcMs: number,
    ): Result<number, Context>;
    guildhallRefresh(
      key: string,
      nowMs: number,
      expiresAtMs: number,
      ttlMs: number,
    ): Result<number, Context>;
    guildhallClaim(
      key: string,
      nowMs: number,
      endpoint: string,
      expiresAtMs: number,
      ttlMs: number,
      replacing: string,
    ): Result<string, Context>;
    guildhallRefreshClaim(
      key: string,
      nowMs: number,
      endpoint: string,
      expiresAtMs: number,
      ttlMs: number,
    ): Result<number, Context>;
    guildhallReleaseClaim(key: string, endpoint: string): Result<number, Context>;
  }
}

/** Registers the scripts on a client (each is sent once, then run by its SHA). */
export function defineScripts(client: Redis): void {
  // No numberOfKeys: a chain has as many keys as steps, given first on each call.
  client.defineCommand('guildhallChain', { lua: CHAIN });
  client.defineCommand('guildhallReserve', { numberOfKeys: 1, lua: RESERVE });
  client.defineCommand('guildhallRefresh', { numberOfKeys: 1, lua: REFRESH });
  client.defineCommand('guildhallClaim', { numberOfKeys: 1, lua: CLAIM });
  client.defineCommand('guildhallRefreshClaim', { numberOfKeys: 1, lua: REFRESH_CLAIM });
  client.defineCommand('guildhallReleaseClaim', { numberOfKeys: 1, lua: RELEASE_CLAIM });
}
