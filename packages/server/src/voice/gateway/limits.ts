/**
 * @module voice/gateway/limits: the voice node's fixed limits and periods: what a member keeps
 * for a Resume, how much a connection may leave unread or send, and the node's tick.
 */

/** Frames kept per member for a Resume. */
export const RESUME_BUFFER_FRAMES = 128;
export const RESUME_BUFFER_BYTES = 512 * 1024;
/** Bytes written to a connection and not yet read by its client before it is dropped. */
export const MAX_UNREAD_BYTES = 2 * 1024 * 1024;
/** The largest frame before Identify (an Identify or a Resume is a few hundred bytes). */
export const MAX_UNIDENTIFIED_FRAME = 4 * 1024;
/** The largest frame a client may send: a commit with its welcome for a full call fits. */
export const MAX_CLIENT_FRAME = 512 * 1024 + 1;

export const TICK_MS = 1_000;
/** The node tells the placement its load (and keeps its calls claimed) every this many ticks. */
export const HEARTBEAT_TICKS = 5;
export const RATE_WINDOW_MS = 10_000;
