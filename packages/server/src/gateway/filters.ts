import { GatewayIntentBits as I } from '@guildhall/protocol';
import { canReadMessageContent, withoutMessageContent } from '../domain/messageContent.js';
import { EncodedDispatch } from './frames.js';
import { obfuscateChannel } from './guildState.js';

/** What the filter needs to know about a receiving session. */
export interface ContentSession {
  userId: string;
  isApp: boolean;
  intents: number;
}

/**
 * The variants of one guild dispatch, each encoded at most once whatever the number of sessions:
 * the full one, the obfuscated channel (CHANNEL_CREATE/UPDATE of a channel a session cannot
 * view) and the message without its content (MESSAGE_CONTENT rule).
 */
export interface DispatchVariants {
  full: EncodedDispatch;
  obfuscated: EncodedDispatch | null;
  withoutContent: EncodedDispatch | null;
  canRead(session: ContentSession): boolean;
}

const CONTENT_EVENTS = new Set(['MESSAGE_CREATE', 'MESSAGE_UPDATE']);
const CHANNEL_EVENTS = new Set(['CHANNEL_CREATE', 'CHANNEL_UPDATE']);

function lazy(type: string, make: () => unknown): EncodedDispatch {
  let made: EncodedDispatch | null = null;
  const get = () => (made ??= new EncodedDispatch(type, make()));
  return new (class extends EncodedDispatch {
    override json() {
      return get().json();
    }
    override frame(...args: Parameters<EncodedDispatch['frame']>) {
      return get().frame(...args);
    }
  })(type, undefined);
}

export function guildDispatchVariants(
  type: string,
  data: Record<string, unknown>,
  guildId: string,
): DispatchVariants {
  const full = new EncodedDispatch(type, data);
  const obfuscated = CHANNEL_EVENTS.has(type)
    ? lazy(type, () => obfuscateChannel(data, guildId))
    : null;
  if (!CONTENT_EVENTS.has(type) || typeof data['content'] !== 'string') {
    return { full, obfuscated, withoutContent: null, canRead: () => true };
  }
  const author = data['author'] as { id?: unknown } | undefined;
  const authorId = typeof author?.id === 'string' ? author.id : '';
  const mentions = Array.isArray(data['mentions'])
    ? (data['mentions'] as { id?: unknown }[]).map((m) => String(m.id))
    : [];
  const message = { authorId, inDirectChannel: false, mentionedUserIds: mentions };
  return {
    full,
    obfuscated,
    withoutContent: lazy(type, () =>
      withoutMessageContent(data as unknown as Parameters<typeof withoutMessageContent>[0]),
    ),
    canRead: (session) =>
      canReadMessageContent(
        {
          userId: session.userId,
          isApp: session.isApp,
          hasMessageContent: (session.intents & I.MESSAGE_CONTENT) !== 0,
        },
        message,
      ),
  };
}
