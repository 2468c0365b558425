/**
 * The activities part of the client state: the instances running where the person can see them
 * (a channel's list read once, then EMBEDDED_ACTIVITY_UPDATE), the one whose frame is open here,
 * and the rich presence its frame set (sent again with every op 3). Docs: docs/activities.md.
 *
 * @module
 */
import type { ActivityInstance, ShelfApplication } from './api.js';
import type { PresenceActivity } from './frameProtocol.js';

export interface ActivitiesState {
  /** Live instances by instance id. */
  instances: Record<string, ActivityInstance>;
  /** The instance whose frame this client shows, or null. */
  open: string | null;
  /** The rich presence the open frame set (SET_ACTIVITY), or null. */
  presence: PresenceActivity | null;
  /** Apps with an activity, as the shelves listed them (their names and icons). */
  applications: Record<string, ShelfApplication>;
  /**
   * Invites the person accepted (Join), by application id: the join secret ACTIVITY_JOIN gives
   * the app's frame once it subscribes.
   */
  joins: Record<string, { applicationId: string; secret: string }>;
}

export const initialActivities: ActivitiesState = {
  instances: {},
  open: null,
  presence: null,
  applications: {},
  joins: {},
};

/** The person accepted an invite to the app: its frame gets ACTIVITY_JOIN with the secret. */
export function joinAccepted(
  state: ActivitiesState,
  join: { applicationId: string; secret: string },
): ActivitiesState {
  return { ...state, joins: { ...state.joins, [join.applicationId]: join } };
}

/** The app's frame got its ACTIVITY_JOIN. */
export function joinDelivered(state: ActivitiesState, applicationId: string): ActivitiesState {
  const joins = Object.fromEntries(
    Object.entries(state.joins).filter(([key]) => key !== applicationId),
  );
  return { ...state, joins };
}

/** A channel's shelf was read: its apps' names are known. */
export function shelfLoaded(state: ActivitiesState, apps: ShelfApplication[]): ActivitiesState {
  const applications = { ...state.applications };
  for (const app of apps) applications[app.id] = app;
  return { ...state, applications };
}

/** This client opened (launched or joined) an instance: its frame shows. */
export function instanceOpened(
  state: ActivitiesState,
  instance: ActivityInstance,
): ActivitiesState {
  return {
    ...state,
    instances: { ...state.instances, [instance.instance_id]: instance },
    open: instance.instance_id,
  };
}

/** The frame closed (the person left, or the activity closed itself). */
export function frameClosed(state: ActivitiesState, instanceId: string): ActivitiesState {
  return state.open === instanceId ? { ...state, open: null } : state;
}

function without(instances: Record<string, ActivityInstance>, id: string) {
  return Object.fromEntries(Object.entries(instances).filter(([key]) => key !== id));
}

/**
 * One instance's news (a route's answer or EMBEDDED_ACTIVITY_UPDATE). An ended instance is
 * dropped; the open frame closes when the person is no longer among its users; a launch by this
 * person (from the client, or an app's LAUNCH_ACTIVITY answer) opens its frame.
 */
export function instanceUpdated(
  state: ActivitiesState,
  instance: ActivityInstance,
  meId: string | null,
): ActivitiesState {
  const id = instance.instance_id;
  const joined = meId !== null && instance.users.includes(meId);
  if (instance.ended) {
    return {
      ...state,
      instances: without(state.instances, id),
      open: state.open === id ? null : state.open,
    };
  }
  let open = state.open;
  if (open === id && !joined) open = null;
  else if (open === null && joined && instance.launched_by === meId) open = id;
  return { ...state, instances: { ...state.instances, [id]: instance }, open };
}

/** A channel's live instances as the list route answered them (others there are gone). */
export function channelInstancesLoaded(
  state: ActivitiesState,
  channelId: string,
  list: ActivityInstance[],
): ActivitiesState {
  const kept = Object.values(state.instances).filter(
    (instance) => instance.location.channel_id !== channelId || instance.instance_id === state.open,
  );
  const instances = Object.fromEntries(
    [...kept, ...list].map((instance) => [instance.instance_id, instance]),
  );
  return { ...state, instances };
}

/** The live instances in a channel, oldest launch first. */
export function instancesIn(state: ActivitiesState, channelId: string): ActivityInstance[] {
  return Object.values(state.instances)
    .filter((instance) => instance.location.channel_id === channelId)
    .sort((a, b) => (BigInt(a.launch_id) < BigInt(b.launch_id) ? -1 : 1));
}
