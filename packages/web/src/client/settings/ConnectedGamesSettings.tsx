import { useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { api, errorMessage } from '../../lib/api.js';
import { FormError } from '../../components/Field.js';

/** Who may message the person from games they connected (docs/social-friends.md). */
export type AllowMessagesFrom = 'everyone' | 'friends' | 'nobody';

interface ConnectedGamesSetting {
  allow_messages_from: AllowMessagesFrom;
}

const CHOICES: readonly { value: AllowMessagesFrom; label: string; hint: string }[] = [
  {
    value: 'everyone',
    label: 'Everyone',
    hint: 'Any player of a game you connected may send you a message from it.',
  },
  {
    value: 'friends',
    label: 'Friends',
    hint: 'Only your friends, here or in that game.',
  },
  { value: 'nobody', label: 'Nobody', hint: 'No messages from games.' },
];

const PATH = '/users/@me/settings/connected-games';

/**
 * `/settings/connected-games`: who may message the person from connected games (the games'
 * Social SDK opens this page, `openConnectedGamesSettingsInPlatform`). Read with GET, each choice
 * saved at once with PATCH.
 */
export function ConnectedGamesSettings() {
  const [setting, setSetting] = useState<AllowMessagesFrom | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<AllowMessagesFrom | null>(null);
  const [saved, setSaved] = useState(false);
  const legendId = useId();
  useEffect(() => {
    const controller = new AbortController();
    api<ConnectedGamesSetting>('GET', PATH, { signal: controller.signal }).then(
      (answer) => {
        setSetting(answer.allow_messages_from);
      },
      (e: unknown) => {
        if (!controller.signal.aborted) setError(errorMessage(e));
      },
    );
    return () => {
      controller.abort();
    };
  }, []);
  const choose = async (value: AllowMessagesFrom) => {
    const before = setting;
    setSetting(value);
    setSaving(value);
    setSaved(false);
    setError(null);
    try {
      const answer = await api<ConnectedGamesSetting>('PATCH', PATH, {
        body: { allow_messages_from: value },
      });
      setSetting(answer.allow_messages_from);
      setSaved(true);
    } catch (e) {
      // The choice did not take: show the one that holds.
      setSetting(before);
      setError(errorMessage(e));
    } finally {
      setSaving(null);
    }
  };
  return (
    <main className="auth-page">
      <section className="card auth-card connected-games" aria-labelledby="connected-games-title">
        <h1 id="connected-games-title">Connected games</h1>
        <p className="hint">
          Games you play with a Guildhall account can show your friends and let players message you.
          Choose who may message you from those games.
        </p>
        {setting === null && error === null ? (
          <p className="muted" role="status">
            Loading…
          </p>
        ) : null}
        {setting === null ? null : (
          <fieldset className="connected-games-choices" aria-labelledby={legendId}>
            <legend id={legendId}>Who can message me from connected games</legend>
            {CHOICES.map((choice) => (
              <label key={choice.value} className="connected-games-choice">
                <input
                  type="radio"
                  name="allow_messages_from"
                  value={choice.value}
                  checked={setting === choice.value}
                  disabled={saving !== null}
                  onChange={() => {
                    void choose(choice.value);
                  }}
                />
                <span>
                  <strong>{choice.label}</strong>
                  <span className="hint">{choice.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        <FormError message={error} />
        <p className="muted" role="status">
          {saving !== null ? 'Saving…' : saved ? 'Saved.' : ''}
        </p>
        <Link href="/channels/@me">Back to Guildhall</Link>
      </section>
    </main>
  );
}
