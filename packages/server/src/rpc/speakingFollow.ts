/**
 * @module rpc/speakingFollow: which voice channel the daemon's gateway session follows for the
 * RPC events SPEAKING_START and SPEAKING_STOP. The daemon holds no voice connection, so it asks
 * the gateway (Guildhall's op 1001, docs/gateway.md#guildhalls-own), which follows one channel
 * per session: the channel of the latest SPEAKING subscription of any connection, until no
 * connection holds one for it (then another held one, or none). Sent again whenever the gateway
 * session is new or resumed, since what it follows lives on its gateway node.
 */

/** What op 1001 carries. */
export interface SpeakingTarget {
  guild_id: string;
  channel_id: string | null;
}

export interface SpeakingFollow {
  /** A connection subscribed to SPEAKING events of a guild voice channel: follow it. */
  subscribed(channelId: string, guildId: string): void;
  /** Subscriptions went away (UNSUBSCRIBE, a connection closed): follow what is still held. */
  changed(): void;
  /** The gateway session is new or resumed: ask again. */
  resend(): void;
}

/** The channel a SPEAKING subscription key (`SPEAKING_START:<id>`) names, or null. */
function channelOf(key: string): string | null {
  const match = /^SPEAKING_(?:START|STOP):(\d+)$/.exec(key);
  return match?.[1] ?? null;
}

export function createSpeakingFollow(deps: {
  /** Sends op 1001. */
  send: (target: SpeakingTarget) => void;
  /** Every connection's subscriptions. */
  held: () => Iterable<{ readonly subscriptions: ReadonlySet<string> }>;
}): SpeakingFollow {
  const guildOf = new Map<string, string>();
  let current: string | null = null;
  let lastGuild: string | null = null;

  const send = () => {
    if (current !== null) {
      lastGuild = guildOf.get(current) ?? null;
      if (lastGuild !== null) deps.send({ guild_id: lastGuild, channel_id: current });
    } else if (lastGuild !== null) {
      deps.send({ guild_id: lastGuild, channel_id: null });
    }
  };

  const wanted = (): string[] => {
    const ids: string[] = [];
    for (const connection of deps.held()) {
      for (const key of connection.subscriptions) {
        const id = channelOf(key);
        if (id !== null && guildOf.has(id) && !ids.includes(id)) ids.push(id);
      }
    }
    return ids;
  };

  return {
    subscribed(channelId, guildId) {
      guildOf.set(channelId, guildId);
      if (current === channelId) return;
      current = channelId;
      send();
    },
    changed() {
      const ids = wanted();
      if (current !== null && ids.includes(current)) return;
      const next = ids.at(-1) ?? null;
      if (next === current) return;
      current = next;
      send();
    },
    resend() {
      if (current !== null) send();
    },
  };
}
