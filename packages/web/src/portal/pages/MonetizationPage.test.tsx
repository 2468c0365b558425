import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MonetizationPage } from './MonetizationPage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const APP = '100000000000000001';
const sku = ([id, name, type, flags]: [string, string, number, number]) => ({
  id,
  type,
  application_id: APP,
  name,
  slug: name.toLowerCase(),
  flags,
});
const PLAN = sku(['7', 'Premium', 5, 260]);
const subscription = (status: number) => ({
  id: '9',
  user_id: '42',
  sku_ids: ['7'],
  entitlement_ids: ['8'],
  renewal_sku_ids: status === 0 ? ['7'] : null,
  current_period_start: '2026-11-01T00:00:00.000Z',
  current_period_end: '2026-12-01T00:00:00.000Z',
  status,
  canceled_at: status === 0 ? null : '2026-11-02T00:00:00.000Z',
});

describe('MonetizationPage', () => {
  it('lists SKUs, creates one, grants a test purchase and cancels the subscription', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(
      () => json(200, [sku(['6', 'Sword', 2, 4]), PLAN]),
      () => json(200, []),
      () => json(201, sku(['10', 'Potion', 3, 4])),
      () => json(201, { entitlement: { id: '8' }, subscription: subscription(0) }),
      () => json(200, [sku(['6', 'Sword', 2, 4]), PLAN, sku(['10', 'Potion', 3, 4])]),
      () => json(200, [subscription(0)]),
      () => json(200, subscription(2)),
      () => json(200, [sku(['6', 'Sword', 2, 4]), PLAN, sku(['10', 'Potion', 3, 4])]),
      () => json(200, [subscription(2)]),
    );
    render(
      <AppHarness app={makeApp()}>
        <MonetizationPage />
      </AppHarness>,
    );
    const plan = (await screen.findByRole('rowheader', { name: 'Premium' })).closest('tr');
    if (plan === null) throw new Error('no row');
    expect(plan.textContent).toContain('Subscription');
    expect(plan.textContent).toContain('Available, For users');
    expect(requestOf(fetch, 0).url).toBe(`/api/v10/applications/${APP}/skus`);
    expect(requestOf(fetch, 1).url).toBe(`/api/v10/applications/${APP}/subscriptions`);

    const create = screen.getByRole('form', { name: 'New SKU' });
    await user.type(within(create).getByLabelText('Name'), 'Potion');
    await user.selectOptions(within(create).getByLabelText('Type'), 'Consumable');
    await user.click(within(create).getByRole('button', { name: 'Create SKU' }));
    expect(await screen.findByRole('rowheader', { name: 'Potion' })).toBeDefined();
    expect(requestOf(fetch, 2)).toMatchObject({
      method: 'POST',
      body: { name: 'Potion', type: 3, flags: 4 },
    });

    const purchase = screen.getByRole('form', { name: 'Test purchase' });
    await user.selectOptions(within(purchase).getByLabelText('SKU'), 'Premium (Subscription)');
    await user.type(within(purchase).getByLabelText('User ID'), '42');
    await user.click(within(purchase).getByRole('button', { name: 'Grant' }));
    expect(await screen.findByText('Granted: entitlement 8.')).toBeDefined();
    expect(requestOf(fetch, 3)).toMatchObject({
      method: 'POST',
      url: `/api/v10/applications/${APP}/test-purchases`,
      body: { sku_id: '7', user_id: '42' },
    });

    const subs = await screen.findByRole('region', { name: 'Test subscriptions' });
    const row = within(subs).getByRole('rowheader', { name: '42' }).closest('tr');
    if (row === null) throw new Error('no subscription row');
    expect(row.textContent).toContain('Active');
    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => {
      expect(within(subs).getByText('Ending')).toBeDefined();
    });
    expect(requestOf(fetch, 6)).toMatchObject({
      method: 'PATCH',
      url: `/api/v10/applications/${APP}/subscriptions/9`,
      body: { action: 'cancel' },
    });
  });

  it("shows the API's message when a SKU is refused", async () => {
    const user = userEvent.setup();
    stubFetch(
      () => json(200, []),
      () => json(200, []),
      () =>
        json(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: { slug: { _errors: [{ code: 'SKU_SLUG_TAKEN', message: 'Slug taken.' }] } },
        }),
    );
    render(
      <AppHarness app={makeApp()}>
        <MonetizationPage />
      </AppHarness>,
    );
    expect(await screen.findByText('No SKUs yet.')).toBeDefined();
    const create = screen.getByRole('form', { name: 'New SKU' });
    await user.type(within(create).getByLabelText('Name'), 'Sword');
    await user.click(within(create).getByRole('button', { name: 'Create SKU' }));
    expect((await within(create).findByRole('alert')).textContent).toBe('slug: Slug taken.');
  });
});
