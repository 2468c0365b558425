import { useCallback, useEffect, useState, type SyntheticEvent } from 'react';
import type { APISKU, APISubscription } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { Field, FieldFrame, FormError } from '../../components/Field.js';
import { useApplication } from '../context.js';
import { PageTitle } from '../forms.js';

/** SKU types and flags (docs/monetization.md#skus). */
const SKU_TYPES = [
  { value: 2, label: 'Durable' },
  { value: 3, label: 'Consumable' },
  { value: 5, label: 'Subscription' },
  { value: 6, label: 'Subscription group' },
] as const;
const AVAILABLE = 1 << 2;
const GUILD_SUBSCRIPTION = 1 << 7;
const USER_SUBSCRIPTION = 1 << 8;
const STATUS_LABELS: Record<number, string> = { 0: 'Active', 1: 'Inactive', 2: 'Ending' };

const typeLabel = (type: number) => SKU_TYPES.find((t) => t.value === type)?.label ?? String(type);
const isSubscription = (type: number) => type === 5 || type === 6;
const isGroup = (type: number) => type === 6;

function flagLabels(flags: number): string {
  const labels = [
    (flags & AVAILABLE) !== 0 ? 'Available' : null,
    (flags & GUILD_SUBSCRIPTION) !== 0 ? 'For guilds' : null,
    (flags & USER_SUBSCRIPTION) !== 0 ? 'For users' : null,
  ];
  return labels.filter((l) => l !== null).join(', ') || 'None';
}

/**
 * Monetization: the app's SKUs, the test purchase flow (grant a user, or a guild, a SKU as a
 * purchase would) and the test subscriptions it made, moved through their statuses here.
 */
export function MonetizationPage() {
  const { app } = useApplication();
  const [skus, setSkus] = useState<APISKU[] | null>(null);
  const [subscriptions, setSubscriptions] = useState<APISubscription[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const [skuList, subs] = await Promise.all([
          api<APISKU[]>('GET', `/applications/${app.id}/skus`, signal ? { signal } : {}),
          api<APISubscription[]>(
            'GET',
            `/applications/${app.id}/subscriptions`,
            signal ? { signal } : {},
          ),
        ]);
        setSkus(skuList);
        setSubscriptions(subs);
      } catch (error) {
        if (signal?.aborted !== true) setLoadError(errorMessage(error));
      }
    },
    [app.id],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => {
      controller.abort();
    };
  }, [load]);

  return (
    <div className="settings-form">
      <PageTitle title="Monetization">
        SKUs your app sells, and test purchases: Guildhall takes no payments, so you grant a SKU to
        a user and the platform makes what a purchase would, with its events.
      </PageTitle>
      <FormError message={loadError} />
      {skus === null ? (
        loadError === null ? (
          <p role="status">Loading SKUs…</p>
        ) : null
      ) : (
        <>
          <SkuTable skus={skus} />
          <NewSkuForm
            applicationId={app.id}
            onCreated={(sku) => {
              setSkus([...skus, sku]);
            }}
          />
          <TestPurchaseForm applicationId={app.id} skus={skus} onDone={() => void load()} />
          <SubscriptionTable
            applicationId={app.id}
            skus={skus}
            subscriptions={subscriptions}
            onChanged={() => void load()}
          />
        </>
      )}
    </div>
  );
}

function SkuTable({ skus }: { skus: readonly APISKU[] }) {
  if (skus.length === 0) return <p>No SKUs yet.</p>;
  return (
    <table className="data-table">
      <caption className="visually-hidden">SKUs</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Slug</th>
          <th scope="col">Flags</th>
          <th scope="col">ID</th>
        </tr>
      </thead>
      <tbody>
        {skus.map((sku) => (
          <tr key={sku.id}>
            <th scope="row">{sku.name}</th>
            <td>{typeLabel(sku.type)}</td>
            <td className="mono">{sku.slug}</td>
            <td>{flagLabels(sku.flags)}</td>
            <td className="mono">{sku.id}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewSkuForm({
  applicationId,
  onCreated,
}: {
  applicationId: string;
  onCreated: (sku: APISKU) => void;
}) {
  const [name, setName] = useState('');
  const [type, setType] = useState(2);
  const [forGuilds, setForGuilds] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const flags = isSubscription(type)
      ? AVAILABLE | (forGuilds ? GUILD_SUBSCRIPTION : USER_SUBSCRIPTION)
      : AVAILABLE;
    try {
      onCreated(
        await api<APISKU>('POST', `/applications/${applicationId}/skus`, {
          body: { name, type, flags },
        }),
      );
      setName('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="New SKU">
      <h2>New SKU</h2>
      <Field
        label="Name"
        value={name}
        required
        maxLength={100}
        onChange={(event) => {
          setName(event.target.value);
        }}
      />
      <FieldFrame label="Type">
        {(control) => (
          <select
            {...control}
            value={type}
            onChange={(event) => {
              setType(Number(event.target.value));
            }}
          >
            {SKU_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      {isSubscription(type) ? (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={forGuilds}
            onChange={(event) => {
              setForGuilds(event.target.checked);
            }}
          />{' '}
          A guild subscription (bought for a server, not a user)
        </label>
      ) : null}
      <FormError message={error} />
      <button type="submit" disabled={busy}>
        Create SKU
      </button>
    </form>
  );
}

function TestPurchaseForm({
  applicationId,
  skus,
  onDone,
}: {
  applicationId: string;
  skus: readonly APISKU[];
  onDone: () => void;
}) {
  const purchasable = skus.filter((sku) => !isGroup(sku.type));
  const [skuId, setSkuId] = useState('');
  const [userId, setUserId] = useState('');
  const [guildId, setGuildId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const chosen = purchasable.find((sku) => sku.id === skuId) ?? purchasable[0];

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (chosen === undefined) return;
    setError(null);
    setDone(null);
    try {
      const result = await api<{ entitlement: { id: string } }>(
        'POST',
        `/applications/${applicationId}/test-purchases`,
        {
          body: {
            sku_id: chosen.id,
            user_id: userId.trim(),
            ...(guildId.trim() === '' ? {} : { guild_id: guildId.trim() }),
          },
        },
      );
      setDone(`Granted: entitlement ${result.entitlement.id}.`);
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  if (purchasable.length === 0) return null;
  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Test purchase">
      <h2>Test purchase</h2>
      <FieldFrame label="SKU">
        {(control) => (
          <select
            {...control}
            value={chosen?.id ?? ''}
            onChange={(event) => {
              setSkuId(event.target.value);
            }}
          >
            {purchasable.map((sku) => (
              <option key={sku.id} value={sku.id}>
                {sku.name} ({typeLabel(sku.type)})
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <Field
        label="User ID"
        value={userId}
        required
        inputMode="numeric"
        onChange={(event) => {
          setUserId(event.target.value);
        }}
      />
      {chosen !== undefined && (chosen.flags & GUILD_SUBSCRIPTION) !== 0 ? (
        <Field
          label="Guild ID"
          value={guildId}
          required
          inputMode="numeric"
          onChange={(event) => {
            setGuildId(event.target.value);
          }}
        />
      ) : null}
      <FormError message={error} />
      {done === null ? null : <p role="status">{done}</p>}
      <button type="submit">Grant</button>
    </form>
  );
}

/** The steps a test subscription may take from each status. */
const ACTIONS: Record<number, readonly { action: string; label: string }[]> = {
  0: [
    { action: 'cancel', label: 'Cancel' },
    { action: 'renew', label: 'Renew' },
    { action: 'end', label: 'End now' },
  ],
  2: [
    { action: 'resume', label: 'Resume' },
    { action: 'renew', label: 'Reach period end' },
    { action: 'end', label: 'End now' },
  ],
  1: [],
};

function SubscriptionTable({
  applicationId,
  skus,
  subscriptions,
  onChanged,
}: {
  applicationId: string;
  skus: readonly APISKU[];
  subscriptions: readonly APISubscription[];
  onChanged: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const run = async (subscription: APISubscription, action: string | null) => {
    setError(null);
    try {
      const path = `/applications/${applicationId}/subscriptions/${subscription.id}`;
      if (action === null) await api('DELETE', path);
      else await api('PATCH', path, { body: { action } });
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  if (subscriptions.length === 0) return null;
  const skuName = (id: string | undefined) => skus.find((s) => s.id === id)?.name ?? id;
  return (
    <section aria-label="Test subscriptions">
      <h2>Test subscriptions</h2>
      <FormError message={error} />
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">SKU</th>
            <th scope="col">Status</th>
            <th scope="col">Period ends</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.map((subscription) => (
            <tr key={subscription.id}>
              <th scope="row" className="mono">
                {subscription.user_id}
              </th>
              <td>{skuName(subscription.sku_ids[0])}</td>
              <td>{STATUS_LABELS[subscription.status] ?? String(subscription.status)}</td>
              <td>{new Date(subscription.current_period_end).toLocaleString()}</td>
              <td>
                {(ACTIONS[subscription.status] ?? []).map(({ action, label }) => (
                  <button key={action} type="button" onClick={() => void run(subscription, action)}>
                    {label}
                  </button>
                ))}
                <button
                  type="button"
                  className="danger"
                  onClick={() => void run(subscription, null)}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
