/**
 * The `guildhall sku …` and `guildhall subscription …` commands: an operator defines SKUs and
 * runs the test purchase flow from the command line (docs/monetization.md#from-the-command-line).
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { useCliDataDir } from './support/cliFixture.js';

describe('guildhall sku and subscription', () => {
  const { run, userAndApp } = useCliDataDir('guildhall-sku-');

  it('creates, edits and lists SKUs, test-purchases a subscription and moves it on', async () => {
    const dev = await userAndApp('skudev', 'Shop');
    const player = await run(
      ...['user', 'create', '--username', 'buyer', '--email', 'buyer@example.test'],
      ...['--password', 'long enough password'],
    );
    const buyerId = player.json()['user_id'] as string;

    const created = await run(
      ...['sku', 'create', '--app', dev.applicationId, '--name', 'Premium Plan'],
      ...['--type', 'subscription'],
    );
    expect(created.code).toBe(0);
    const sku = created.json();
    expect(sku).toMatchObject({ type: 5, flags: 260, slug: 'premium-plan', name: 'Premium Plan' });
    const skuId = sku['id'] as string;

    const edited = await run(
      ...['sku', 'edit', '--app', dev.applicationId, '--sku', skuId, '--name', 'Premium'],
    );
    expect(edited.json()).toMatchObject({ id: skuId, name: 'Premium', slug: 'premium-plan' });
    const listed = await run('sku', 'list', '--app', dev.applicationId);
    expect(JSON.parse(listed.out)).toEqual([edited.json()]);

    const bought = await run(
      ...['sku', 'purchase', '--app', dev.applicationId, '--sku', skuId, '--user', buyerId],
      ...['--period-days', '7'],
    );
    expect(bought.code).toBe(0);
    const { subscription, entitlement } = bought.json() as {
      subscription: { id: string; status: number; entitlement_ids: string[] };
      entitlement: { id: string; type: number };
    };
    expect(subscription).toMatchObject({ status: 0, entitlement_ids: [entitlement.id] });
    expect(entitlement.type).toBe(8);

    const canceled = await run(
      ...['subscription', 'update', '--app', dev.applicationId],
      ...['--subscription', subscription.id, '--action', 'cancel'],
    );
    expect(canceled.json()).toMatchObject({ id: subscription.id, status: 2 });
    const subs = await run('subscription', 'list', '--app', dev.applicationId);
    expect(JSON.parse(subs.out)).toMatchObject([{ id: subscription.id, status: 2 }]);
    const removed = await run(
      ...['subscription', 'delete', '--app', dev.applicationId, '--subscription', subscription.id],
    );
    expect(removed.json()).toEqual({ subscription_id: subscription.id, deleted: true });

    // Refusals print the platform's error and exit 2.
    const badType = await run(
      'sku',
      'create',
      '--app',
      dev.applicationId,
      '--name',
      'X',
      '--type',
      'gift',
    );
    expect(badType.code).toBe(2);
    expect(badType.err).toContain('--type must be');
    const unknownApp = await run('sku', 'list', '--app', '123');
    expect(unknownApp.code).toBe(2);
    expect(unknownApp.err).toContain('Unknown Application (code 10002)');
    const again = await run(
      'sku',
      'create',
      '--app',
      dev.applicationId,
      '--name',
      'Premium Plan',
      '--type',
      'durable',
    );
    expect(again.err).toContain('--slug: The application has a SKU with this slug already.');
    const badAction = await run(
      ...['subscription', 'update', '--app', dev.applicationId],
      ...['--subscription', subscription.id, '--action', 'fly'],
    );
    expect(badAction.code).toBe(2);
    const help = await run('sku', 'purchase', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: guildhall sku purchase --app APPLICATION_ID');
  });
});
