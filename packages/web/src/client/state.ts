import type { ClientState } from './clientState.js';
import { channelsSlice } from './reducers/channels.js';
import { combineSlices, type DispatchData, type DispatchName } from './reducers/dispatch.js';
import { guildsSlice } from './reducers/guilds.js';
import { membersSlice } from './reducers/members.js';
import { messagesSlice } from './reducers/messages.js';
import { sessionSlice } from './reducers/session.js';
import { voiceSlice } from './reducers/voice.js';

export {
  compareIds,
  initialState,
  type ChannelMessages,
  type ClientState,
  type PendingMessage,
  type ReactionEmoji,
} from './clientState.js';
export {
  TYPING_MS,
  addMessages,
  addPending,
  applyReaction,
  expireTyping,
  settlePending,
  startHistory,
} from './reducers/messages.js';
export type { VoiceStateEntry } from './voice/voiceState.js';

/**
 * The slice reducers (reducers/), each following the dispatches of one part of the state. A
 * dispatch may concern several (MESSAGE_CREATE: the message, its author's member, its channel);
 * each applies its part, and the order does not matter, since none reads what another writes.
 * READY starts the state again in the session slice.
 */
const reduceSlices = combineSlices([
  sessionSlice,
  guildsSlice,
  channelsSlice,
  membersSlice,
  messagesSlice,
  voiceSlice,
]);

/**
 * One gateway dispatch applied to the state. Pure: `now` (ms) dates typing indicators. Unknown
 * dispatches leave the state as it is (the same object, so nothing re-renders).
 */
export function reduce(
  state: ClientState,
  dispatch: { t: string; d: unknown },
  now: number,
): ClientState {
  // The one place a frame's data meets its type: the gateway sends each dispatch in the shape
  // discord-api-types gives its name (a name no slice follows changes nothing).
  const typed = dispatch as { t: DispatchName; d: DispatchData[DispatchName] };
  return reduceSlices(state, typed, now);
}
