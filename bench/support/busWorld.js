/**
 * The synthetic deployment of bench/busScale.js: sessions spread over gateway nodes, their
 * guilds drawn with a Zipf-like skew, and which guild speaks next (in proportion to its
 * members); and the NATS server's CPU time read from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { guildSubject, userSubject } from '../../packages/server/dist/events/dispatcher.js';

/** A deterministic pseudo-random source (the same world for the same options). */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws an index in [0, n) with weight 1 / (i + 1): guild 0 is the biggest. */
function zipf(n, rand) {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i += 1) cumulative[i] = total += 1 / (i + 1);
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Sessions spread over nodes; each node's local session count per subject. */
export function buildWorld(options) {
  const rand = random(42);
  const pickGuild = zipf(options.guilds, rand);
  const guildIds = Array.from({ length: options.guilds }, (_, i) => String(1e15 + i));
  const members = guildIds.map(() => []);
  const nodes = Array.from({ length: options.nodes }, () => new Map());
  const add = (node, subject) => node.set(subject, (node.get(subject) ?? 0) + 1);
  const users = [];
  for (let s = 0; s < options.sessions; s += 1) {
    const userId = String(2e15 + s);
    const node = nodes[s % options.nodes];
    users.push({ userId, node: s % options.nodes });
    add(node, userSubject(userId));
    const mine = new Set();
    while (mine.size < Math.min(options.guildsPerSession, options.guilds)) mine.add(pickGuild());
    for (const g of mine) {
      members[g].push(s);
      add(node, guildSubject(guildIds[g]));
    }
  }
  // A guild speaks in proportion to its members.
  const weights = new Float64Array(options.guilds);
  let total = 0;
  for (let g = 0; g < options.guilds; g += 1) weights[g] = total += members[g].length;
  const speakingGuild = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = options.guilds - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (weights[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return guildIds[lo];
  };
  return { nodes, users, guildIds, members, speakingGuild, rand };
}

/** The NATS server's process on this machine (its pid), or null. */
export function findNatsServer() {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'nats-server') return pid;
    } catch {
      // The process ended while we looked.
    }
  }
  return null;
}

/** A process's CPU time so far in ms (utime + stime from /proc), or null. */
export function cpuMsOf(pid) {
  if (pid === null) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are the 12th and 13th fields after the command, in clock ticks (100/s).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}
