import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RichPresencePage } from './RichPresencePage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RichPresencePage', () => {
  it('uploads an asset with its name and type, shows the API error by field, and deletes', async () => {
    const user = userEvent.setup();
    const app = makeApp();
    const fetch = stubFetch(
      () => json(200, [{ id: '7', type: 1, name: 'small_one' }]),
      () =>
        json(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: {
            name: { _errors: [{ code: 'X', message: 'An asset with this name already exists.' }] },
          },
        }),
      () => json(201, { id: '8', type: 2, name: 'big_map' }),
      () => json(204, null),
    );
    render(
      <AppHarness app={app}>
        <RichPresencePage />
      </AppHarness>,
    );
    const small = await screen.findByRole<HTMLImageElement>('img', { name: 'small_one' });
    expect(small.getAttribute('src')).toBe(`/app-assets/${app.id}/7.png`);
    // The public list is read without the session.
    expect(requestOf(fetch, 0).url).toBe(`/api/v10/oauth2/applications/${app.id}/assets`);
    expect(new Headers(fetch.mock.calls[0]?.[1]?.headers).get('authorization')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Upload Asset' }));
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Pick an image.',
      'This field is required.',
    ]);

    const png = new File([new Uint8Array([137, 80, 78, 71])], 'map.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Image file'), png);
    await screen.findByRole('img', { name: 'Preview of the picked image' });
    await user.type(screen.getByLabelText('Asset name'), 'small_one');
    await user.click(screen.getByRole('button', { name: 'Upload Asset' }));
    expect(requestOf(fetch, 1).body).toEqual({
      name: 'small_one',
      type: 2,
      image: 'data:image/png;base64,iVBORw==',
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'An asset with this name already exists.',
    );

    await user.clear(screen.getByLabelText('Asset name'));
    await user.type(screen.getByLabelText('Asset name'), 'big_map');
    await user.click(screen.getByRole('button', { name: 'Upload Asset' }));
    expect(await screen.findByRole('img', { name: 'big_map' })).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Delete small_one' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete small_one?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await vi.waitFor(() => {
      expect(screen.queryByRole('img', { name: 'small_one' })).toBeNull();
    });
    expect(requestOf(fetch, 3)).toMatchObject({
      method: 'DELETE',
      url: `/api/v10/applications/${app.id}/assets/7`,
    });
    // The Delete button that had focus is gone: focus waits on the list's heading.
    await vi.waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Assets' }));
    });
  });
});
