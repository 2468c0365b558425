/**
 * @module control/faults: the faults in force, which the HTTP server, the gateway and the
 * deliveries ask about at their one point each (control/httpFaults.ts, control/gatewayFaults.ts,
 * control/deliveryFaults.ts). A fault that matches fires: it is counted, and gone once it has
 * fired its `times`.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import { checkFaultSpec } from './faultSpec.js';
import type { Fault, FaultSpec, Faults, TokenFaultResult } from './types.js';

/** Whom a request, session or delivery concerns, for a fault's `botId`. */
export interface FaultSubject {
  userId: string | null;
  applicationId: string | null;
}

type Kind = FaultSpec['kind'];
export type FaultOf<K extends Kind> = Fault & Extract<FaultSpec, { kind: K }>;

/** What the parts of the platform do for faults that act at once (tokens, live sessions). */
export interface FaultPorts {
  /** A gateway fault triggered `now`: done to each live session it matches; how many. */
  gatewayNow?: (fault: FaultOf<'gateway'>, take: (subject: FaultSubject) => boolean) => void;
  expireToken?: (token: string) => Promise<TokenFaultResult>;
  revokeToken?: (token: string) => Promise<TokenFaultResult>;
}

/** The faults, and what the platform's parts ask of them. */
export interface FaultRegistry extends Faults {
  /**
   * The faults of `kind` that match `subject` and `test`, oldest first; each one `fire`
   * is called on counts once (and leaves once spent).
   */
  matching<K extends Kind>(
    kind: K,
    subject: FaultSubject,
    test?: (fault: FaultOf<K>) => boolean,
  ): FaultOf<K>[];
  /** Counts one firing of `fault`; false when it was spent (or removed) meanwhile. */
  fire(fault: Fault): boolean;
  /** Whether any fault of `kind` is in force (the cheap check on hot paths). */
  any(kind: Kind): boolean;
  /** The ports, set once the parts exist (the gateway is made after the faults). */
  bind(ports: FaultPorts): void;
}

/** A gateway fault done to a session once (rather than a standing one, such as a delay). */
export function isSessionAction(fault: Extract<FaultSpec, { kind: 'gateway' }>): boolean {
  return fault.type === 'reconnect' || fault.type === 'invalidSession' || fault.type === 'close';
}

interface Entry {
  fault: Fault & { fired: number };
  left: number | null;
}

export function createFaultRegistry(deps: { clock: Clock }): FaultRegistry {
  const entries = new Map<string, Entry>();
  const counts: Record<Kind, number> = { http: 0, gateway: 0, delivery: 0 };
  let ports: FaultPorts = {};

  const snapshot = (entry: Entry): Fault => ({ ...entry.fault });
  const subjectMatches = (fault: Fault, subject: FaultSubject) =>
    fault.botId === undefined ||
    fault.botId === subject.userId ||
    fault.botId === subject.applicationId;

  const drop = (id: string) => {
    const entry = entries.get(id);
    if (entry === undefined) return false;
    entries.delete(id);
    counts[entry.fault.kind]--;
    return true;
  };

  const fire = (fault: Fault) => {
    const entry = entries.get(fault.id);
    if (entry === undefined) return false;
    entry.fault.fired++;
    if (entry.left !== null && --entry.left <= 0) drop(fault.id);
    return true;
  };

  const registry: FaultRegistry = {
    add(input: FaultSpec) {
      const spec = checkFaultSpec(input);
      const id = randomBytes(6).toString('hex');
      const fault = { ...spec, id, fired: 0, createdAtMs: deps.clock.now() } as Fault & {
        fired: number;
      };
      entries.set(id, { fault, left: spec.times ?? null });
      counts[spec.kind]++;
      if (fault.kind === 'gateway' && isSessionAction(fault) && (fault.on ?? 'now') === 'now') {
        // Done now to the sessions it matches, as many as its `times` allow; then gone.
        ports.gatewayNow?.(fault, (subject) => subjectMatches(fault, subject) && fire(fault));
        drop(id);
      }
      return snapshot({ fault, left: null });
    },
    list: () => [...entries.values()].map(snapshot),
    get(id) {
      const entry = entries.get(id);
      return entry === undefined ? undefined : snapshot(entry);
    },
    remove: drop,
    clear() {
      entries.clear();
      counts.http = counts.gateway = counts.delivery = 0;
    },
    async expireToken(token) {
      if (ports.expireToken === undefined) throw new Error('tokens cannot be expired here');
      return ports.expireToken(token);
    },
    async revokeToken(token) {
      if (ports.revokeToken === undefined) throw new Error('tokens cannot be revoked here');
      return ports.revokeToken(token);
    },
    matching(kind, subject, test) {
      if (counts[kind] === 0) return [];
      const found = [];
      for (const { fault } of entries.values()) {
        if (fault.kind !== kind || !subjectMatches(fault, subject)) continue;
        const typed = fault as FaultOf<typeof kind>;
        if (test === undefined || test(typed)) found.push(typed);
      }
      return found;
    },
    fire,
    any: (kind) => counts[kind] > 0,
    bind(next) {
      ports = { ...ports, ...next };
    },
  };
  return registry;
}
