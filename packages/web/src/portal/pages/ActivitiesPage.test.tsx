import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ActivitiesPage, type ActivityConfig } from './ActivitiesPage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const app = makeApp();
const fresh: ActivityConfig = {
  application_id: app.id,
  url_mappings: [],
  supported_platforms: ['web'],
  default_orientation_lock_state: 1,
  tablet_default_orientation_lock_state: 1,
  requires_age_gate: false,
  activity_origin: `http://${app.id}.activities.localhost:3000`,
};

function renderPage() {
  render(
    <AppHarness app={app}>
      <ActivitiesPage />
    </AppHarness>,
  );
}

describe('ActivitiesPage', () => {
  it('edits the mappings, platforms, orientation and age gate, and saves them', async () => {
    const user = userEvent.setup();
    const saved: ActivityConfig = {
      ...fresh,
      url_mappings: [
        { prefix: '/', target: '127.0.0.1:5173' },
        { prefix: '/api', target: 'localhost:3001' },
      ],
      supported_platforms: ['web', 'android'],
      default_orientation_lock_state: 2,
      requires_age_gate: true,
    };
    const fetch = stubFetch(
      () => json(200, fresh),
      () => json(200, saved),
    );
    renderPage();
    expect((await screen.findByLabelText('Activity URL')).getAttribute('value')).toBe(
      fresh.activity_origin,
    );
    expect(requestOf(fetch, 0)).toMatchObject({
      method: 'GET',
      url: `/api/v10/applications/${app.id}/embedded-activity-config`,
    });

    await user.click(screen.getByRole('button', { name: 'Add Mapping' }));
    // The first mapping starts as the root one.
    expect(screen.getByLabelText<HTMLInputElement>('Prefix 1').value).toBe('/');
    await user.type(screen.getByLabelText('Target 1'), '127.0.0.1:5173');
    await user.click(screen.getByRole('button', { name: 'Add Mapping' }));
    await user.type(screen.getByLabelText('Prefix 2'), '/api/');
    await user.type(screen.getByLabelText('Target 2'), 'localhost:3001');
    await user.click(screen.getByRole('checkbox', { name: 'Android' }));
    await user.selectOptions(screen.getByLabelText('Default orientation lock (phones)'), '2');
    await user.click(screen.getByRole('switch', { name: 'Age gate' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(requestOf(fetch, 1)).toEqual({
      method: 'PATCH',
      url: `/api/v10/applications/${app.id}/embedded-activity-config`,
      body: {
        url_mappings: [
          { prefix: '/', target: '127.0.0.1:5173' },
          { prefix: '/api/', target: 'localhost:3001' },
        ],
        supported_platforms: ['web', 'android'],
        default_orientation_lock_state: 2,
        tablet_default_orientation_lock_state: 1,
        requires_age_gate: true,
      },
    });
    // The answer is the new saved state: '/api/' came back as '/api'.
    await vi.waitFor(() => {
      expect(screen.getByLabelText<HTMLInputElement>('Prefix 2').value).toBe('/api');
    });
    expect(screen.getByText('All changes saved.')).toBeTruthy();
  });

  it('catches a bad prefix before sending, and shows the API’s error under its field', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(
      () => json(200, fresh),
      () =>
        json(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: {
            url_mappings: {
              '0': {
                target: {
                  _errors: [{ code: 'X', message: 'A target is host[:port][/path].' }],
                },
              },
            },
          },
        }),
    );
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Mapping' }));
    await user.clear(screen.getByLabelText('Prefix 1'));
    await user.type(screen.getByLabelText('Prefix 1'), 'api');
    await user.type(screen.getByLabelText('Target 1'), 'example.test');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe("A prefix starts with '/'.");
    expect(fetch).toHaveBeenCalledTimes(1);

    await user.clear(screen.getByLabelText('Prefix 1'));
    await user.type(screen.getByLabelText('Prefix 1'), '/');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => {
      expect(fetch).toHaveBeenCalledTimes(2);
    });
    expect((await screen.findByRole('alert')).textContent).toBe('A target is host[:port][/path].');
    expect(screen.getByLabelText('Target 1').getAttribute('aria-invalid')).toBe('true');
  });

  it('says why the settings could not be loaded', async () => {
    stubFetch(() => json(404, { code: 10002, message: 'Unknown Application' }));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Unknown Application');
  });
});
