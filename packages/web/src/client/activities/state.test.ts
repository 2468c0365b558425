/** The activities part of the store: instances, the open frame, the launched-by-me rule. */
import { describe, expect, it } from 'vitest';
import type { ActivityInstance } from './api.js';
import {
  channelInstancesLoaded,
  frameClosed,
  initialActivities,
  instanceOpened,
  instanceUpdated,
  instancesIn,
} from './state.js';

const ME = '10';

function instance(overrides: Partial<ActivityInstance> = {}): ActivityInstance {
  return {
    application_id: '500',
    instance_id: 'i-900-gc-1-2',
    launch_id: '900',
    location: { id: 'gc-1-2', kind: 'gc', channel_id: '2', guild_id: '1' },
    users: [ME],
    participants: [],
    launched_by: ME,
    ended: false,
    activity_origin: 'http://500.activities.localhost:8080',
    ...overrides,
  };
}

describe('instanceUpdated', () => {
  it('opens the frame of an instance this person launched (LAUNCH_ACTIVITY)', () => {
    const state = instanceUpdated(initialActivities, instance(), ME);
    expect(state.open).toBe('i-900-gc-1-2');
  });

  it("does not open someone else's launch, nor one this person is not in", () => {
    const theirs = instanceUpdated(initialActivities, instance({ launched_by: '11' }), ME);
    expect(theirs.open).toBeNull();
    expect(Object.keys(theirs.instances)).toEqual(['i-900-gc-1-2']);
    const left = instanceUpdated(initialActivities, instance({ users: ['11'] }), ME);
    expect(left.open).toBeNull();
  });

  it('does not replace a frame already open', () => {
    const open = instanceOpened(initialActivities, instance({ instance_id: 'other' }));
    expect(instanceUpdated(open, instance(), ME).open).toBe('other');
  });

  it('closes the frame when the person is no longer in it, and drops ended instances', () => {
    const open = instanceUpdated(initialActivities, instance(), ME);
    const gone = instanceUpdated(open, instance({ users: ['11'] }), ME);
    expect(gone.open).toBeNull();
    expect(gone.instances['i-900-gc-1-2']?.users).toEqual(['11']);
    const ended = instanceUpdated(open, instance({ ended: true, users: [] }), ME);
    expect(ended).toMatchObject({ open: null, instances: {} });
  });
});

describe('channel lists', () => {
  it('replaces a channel list, keeps the open instance and other channels', () => {
    let state = instanceOpened(initialActivities, instance());
    state = instanceUpdated(state, instance({ instance_id: 'old', launch_id: '800' }), '11');
    state = instanceUpdated(
      state,
      instance({
        instance_id: 'elsewhere',
        location: { id: 'pc-3', kind: 'pc', channel_id: '3' },
      }),
      '11',
    );
    const fresh = instance({ instance_id: 'new', launch_id: '950', launched_by: '11' });
    state = channelInstancesLoaded(state, '2', [fresh]);
    expect(instancesIn(state, '2').map((i) => i.instance_id)).toEqual(['i-900-gc-1-2', 'new']);
    expect(instancesIn(state, '3').map((i) => i.instance_id)).toEqual(['elsewhere']);
  });

  it('frameClosed closes only that frame', () => {
    const state = instanceOpened(initialActivities, instance());
    expect(frameClosed(state, 'x').open).toBe('i-900-gc-1-2');
    expect(frameClosed(state, 'i-900-gc-1-2').open).toBeNull();
  });
});
