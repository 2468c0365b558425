import { useEffect, useState } from 'react';
import { Dialog } from '../../components/Dialog.js';
import { errorMessage } from '../../lib/api.js';
import type { Store } from '../../lib/store.js';
import { useClient, useClientState } from '../context.js';
import type { ClientState } from '../state.js';
import {
  activityShelf,
  launchActivity,
  listInstances,
  type ActivityInstance,
  type ShelfApplication,
} from './api.js';
import { channelInstancesLoaded, instanceOpened, instancesIn, shelfLoaded } from './state.js';

/** Reads the channel's shelf into the store: the names of the apps running there. */
export function loadShelfNames(store: Store<ClientState>, channelId: string): void {
  activityShelf(channelId)
    .then(({ applications }) => {
      store.set((s) => ({ ...s, activities: shelfLoaded(s.activities, applications) }));
    })
    .catch(() => undefined);
}

/**
 * Reads a channel's live instances once (EMBEDDED_ACTIVITY_UPDATE keeps them current) and
 * returns them. A channel the person cannot launch in answers an error: no instances shown.
 */
export function useChannelInstances(channelId: string): ActivityInstance[] {
  const { store } = useClient();
  const activities = useClientState((s) => s.activities);
  useEffect(() => {
    let live = true;
    listInstances(channelId)
      .then((list) => {
        if (!live) return;
        store.set((s) => ({
          ...s,
          activities: channelInstancesLoaded(s.activities, channelId, list),
        }));
        const names = store.get().activities.applications;
        if (list.some((instance) => names[instance.application_id] === undefined)) {
          loadShelfNames(store, channelId);
        }
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [channelId, store]);
  return instancesIn(activities, channelId);
}

/** Launches or joins, then opens the frame. */
function useOpen(channelId: string) {
  const { store } = useClient();
  const [error, setError] = useState<string | null>(null);
  const open = async (applicationId: string) => {
    setError(null);
    try {
      const instance = await launchActivity(channelId, applicationId);
      store.set((s) => ({ ...s, activities: instanceOpened(s.activities, instance) }));
      return true;
    } catch (err) {
      setError(errorMessage(err));
      return false;
    }
  };
  return { open, error };
}

/** The instances running in a channel, each with "Join" (or "Open" when this client is in it). */
export function RunningActivities({ channelId }: { channelId: string }) {
  const instances = useChannelInstances(channelId);
  const apps = useClientState((s) => s.activities.applications);
  const openId = useClientState((s) => s.activities.open);
  const { open, error } = useOpen(channelId);
  if (instances.length === 0) return null;
  return (
    <ul className="running-activities" aria-label="Activities">
      {instances.map((instance) => {
        const name = apps[instance.application_id]?.name ?? 'Activity';
        return (
          <li key={instance.instance_id}>
            <span>
              {name} ({instance.participants.length})
            </span>
            {openId === instance.instance_id ? (
              <span className="muted"> open</span>
            ) : (
              <button
                type="button"
                className="link-button"
                aria-label={`Join ${name}`}
                onClick={() => {
                  void open(instance.application_id);
                }}
              >
                Join
              </button>
            )}
          </li>
        );
      })}
      {error === null ? null : (
        <li role="alert" className="form-error">
          {error}
        </li>
      )}
    </ul>
  );
}

/** "Activities": the apps with an activity the person may launch here (the channel's shelf). */
export function ActivityLauncher({ channelId, label }: { channelId: string; label: string }) {
  const [shown, setShown] = useState(false);
  return (
    <>
      <button
        type="button"
        className="link-button activity-launcher"
        aria-label={label}
        onClick={() => {
          setShown(true);
        }}
      >
        Activities
      </button>
      {shown ? (
        <ShelfDialog
          channelId={channelId}
          onClose={() => {
            setShown(false);
          }}
        />
      ) : null}
    </>
  );
}

function ShelfDialog({ channelId, onClose }: { channelId: string; onClose: () => void }) {
  const { store } = useClient();
  const [apps, setApps] = useState<ShelfApplication[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { open, error } = useOpen(channelId);
  useEffect(() => {
    let live = true;
    activityShelf(channelId)
      .then(({ applications }) => {
        if (!live) return;
        store.set((s) => ({ ...s, activities: shelfLoaded(s.activities, applications) }));
        setApps(applications);
      })
      .catch((err: unknown) => {
        if (live) setLoadError(errorMessage(err));
      });
    return () => {
      live = false;
    };
  }, [channelId, store]);
  return (
    <Dialog title="Activities" onClose={onClose}>
      {loadError !== null ? (
        <p role="alert" className="form-error">
          {loadError}
        </p>
      ) : apps === null ? (
        <p className="muted">Loading…</p>
      ) : apps.length === 0 ? (
        <p className="muted">No app here has an activity. Add one to the server to launch it.</p>
      ) : (
        <ul className="activity-shelf" aria-label="Apps with an activity">
          {apps.map((app) => (
            <li key={app.id}>
              <strong>{app.name}</strong>
              {app.description === '' ? null : <span className="muted"> {app.description}</span>}
              <button
                type="button"
                className="primary"
                aria-label={`Launch ${app.name}`}
                onClick={() => {
                  void open(app.id).then((opened) => {
                    if (opened) onClose();
                  });
                }}
              >
                Launch
              </button>
            </li>
          ))}
        </ul>
      )}
      {error === null ? null : (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </Dialog>
  );
}
