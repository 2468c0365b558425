/**
 * The one recorder of what a server publishes for the gateway: every dispatch on the bus from
 * the moment it is made, with its type, the subject it came on and its envelope's fields. The
 * memory bus delivers asynchronously, so a test either waits for a dispatch (`next`) or asks for
 * everything published so far (`take`, which publishes a marker and waits for it to come back).
 *
 * @module
 */
import { vi } from 'vitest';
import type { App } from '../../src/app.js';
import { ALL_DISPATCHES, type DispatchEnvelope } from '../../src/events/dispatcher.js';

/** A dispatch as the bus carried it: its type and subject, and its envelope's fields. */
export interface RecordedDispatch extends DispatchEnvelope {
  type: string;
  subject: string;
}

/** The subject `take` publishes its marker on: inside what the recorder watches. */
const MARKER_SUBJECT = 'dispatch.test.flush';

/** Records every dispatch `app` publishes from now on, until `stop`. */
export async function recordDispatches(app: App) {
  const events: RecordedDispatch[] = [];
  let markers = 0;
  const subscription = await app.bus.subscribe(ALL_DISPATCHES, (event, subject) => {
    events.push({ ...(event.data as DispatchEnvelope), type: event.type, subject });
  });
  return {
    /** Every dispatch recorded (and not yet taken), oldest first. */
    events,
    /** Stops recording (a recorder on a server that outlives the test or the file). */
    stop: () => {
      subscription.unsubscribe();
    },
    /** Waits for the first recorded dispatch of this type. */
    async next(type: string): Promise<RecordedDispatch> {
      return vi.waitFor(() => {
        const found = events.find((event) => event.type === type);
        if (found === undefined) throw new Error(`no ${type} yet`);
        return found;
      });
    },
    /** The recorded dispatches of this type. */
    ofType: (type: string) => events.filter((event) => event.type === type),
    /** Everything published before the call, which the recorder then forgets. */
    async take(): Promise<RecordedDispatch[]> {
      const marker = `flush-${String((markers += 1))}`;
      await app.bus.publish(MARKER_SUBJECT, {
        type: marker,
        topic: MARKER_SUBJECT,
        data: { id: marker, guildId: null, channelId: null, userIds: [], data: {} },
        publishedAt: Date.now(),
      });
      await vi.waitFor(
        () => {
          if (!events.some((event) => event.type === marker)) throw new Error(`no ${marker} yet`);
        },
        { interval: 2, timeout: 5000 },
      );
      // What came after the marker was published after the call: it stays for the next look.
      const taken = events.splice(0, events.findIndex((event) => event.type === marker) + 1);
      taken.pop();
      return taken;
    },
  };
}

/** What {@link recordDispatches} gives. */
export type DispatchRecorder = Awaited<ReturnType<typeof recordDispatches>>;
