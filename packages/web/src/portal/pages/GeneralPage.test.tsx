import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GeneralPage } from './GeneralPage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function field(label: string): HTMLInputElement {
  return screen.getByLabelText<HTMLInputElement>(label);
}

/** The text of the message a field points at with aria-describedby (its error). */
function describedText(input: HTMLElement): string {
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('GeneralPage', () => {
  it("maps a 50035 body's errors to the fields they name", async () => {
    const user = userEvent.setup();
    const app = makeApp({ tags: ['fun'] });
    const fetch = stubFetch(() =>
      json(400, {
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          interactions_endpoint_url: {
            _errors: [
              {
                code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
                message:
                  'The specified interactions endpoint url could not be verified: it answered 500.',
              },
            ],
          },
          tags: { '1': { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Tag too long.' }] } },
        },
      }),
    );
    render(
      <AppHarness app={app}>
        <GeneralPage />
      </AppHarness>,
    );
    await user.type(field('Interactions Endpoint URL'), 'https://bot.example/interactions');
    await user.type(field('Tags'), ', games');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(requestOf(fetch, 0)).toEqual({
      method: 'PATCH',
      url: `/api/v10/applications/${app.id}`,
      // Only what changed: not the name or description.
      body: {
        tags: ['fun', 'games'],
        interactions_endpoint_url: 'https://bot.example/interactions',
      },
    });
    const endpoint = field('Interactions Endpoint URL');
    await vi.waitFor(() => {
      expect(endpoint.getAttribute('aria-invalid')).toBe('true');
    });
    expect(describedText(endpoint)).toContain('could not be verified: it answered 500.');
    expect(describedText(field('Tags'))).toContain('Tag too long.');
    expect(field('Name').getAttribute('aria-invalid')).toBeNull();
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts).toHaveLength(2);
    // Not saved: the draft is kept for the developer to fix.
    expect(endpoint.value).toBe('https://bot.example/interactions');
  });

  it('checks like the API before sending, then saves and resets from the answer', async () => {
    const user = userEvent.setup();
    const app = makeApp();
    const fetch = stubFetch(() =>
      json(200, { ...app, name: 'Renamed', description: 'Says hello.' }),
    );
    render(
      <AppHarness app={app}>
        <GeneralPage />
      </AppHarness>,
    );
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toHaveProperty('disabled', true);

    await user.clear(field('Name'));
    await user.type(field('Name'), 'x');
    await user.type(field('Event Webhooks URL'), 'ftp://nope');
    await user.click(save);
    expect(fetch).not.toHaveBeenCalled();
    expect(describedText(field('Name'))).toContain('between 2 and 32');
    expect(describedText(field('Event Webhooks URL'))).toContain('http or https');

    await user.clear(field('Event Webhooks URL'));
    await user.clear(field('Name'));
    await user.type(field('Name'), 'Renamed');
    await user.type(field('Description'), 'Says hello.');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(requestOf(fetch, 0).body).toEqual({ name: 'Renamed', description: 'Says hello.' });
    expect(await screen.findByText('All changes saved.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends a picked icon as a data URI, with a preview, and refuses other files', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const app = makeApp();
    const fetch = stubFetch(() => json(200, { ...app, icon: 'abc123' }));
    render(
      <AppHarness app={app}>
        <GeneralPage />
      </AppHarness>,
    );
    const upload = screen.getByLabelText('Upload Icon');
    await user.upload(upload, new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }));
    expect((await screen.findByRole('alert')).textContent).toContain('PNG, JPEG, GIF or WebP');

    const png = new File([new Uint8Array([137, 80, 78, 71])], 'icon.png', { type: 'image/png' });
    await user.upload(upload, png);
    const preview = await screen.findByRole<HTMLImageElement>('img', { name: 'New icon preview' });
    expect(preview.src).toBe('data:image/png;base64,iVBORw==');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(requestOf(fetch, 0).body).toEqual({ icon: 'data:image/png;base64,iVBORw==' });
    await screen.findByText('All changes saved.');
    expect(screen.queryByRole('img', { name: 'New icon preview' })).toBeNull();
  });

  it('uploads and removes a cover image', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const app = makeApp();
    const fetch = stubFetch(() => json(200, { ...app, cover_image: 'c0ffee' }));
    render(
      <AppHarness app={app}>
        <GeneralPage />
      </AppHarness>,
    );
    expect(screen.queryByRole('button', { name: 'Remove Cover Image' })).toBeNull();
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'cover.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Upload Cover Image'), png);
    await screen.findByRole('img', { name: 'New cover image preview' });
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(requestOf(fetch, 0).body).toEqual({ cover_image: 'data:image/png;base64,iVBORw==' });
    await screen.findByText('All changes saved.');
    const shown = screen.getByRole<HTMLImageElement>('img', { name: 'Cover image' });
    expect(shown.getAttribute('src')).toBe(`/app-icons/${app.id}/c0ffee.png?size=512`);

    await user.click(screen.getByRole('button', { name: 'Remove Cover Image' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(requestOf(fetch, 1).body).toEqual({ cover_image: null });
  });
});
