import { useState } from 'react';
import { api, errorMessage } from '../../lib/api.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { CopyField } from '../../components/CopyField.js';
import { Toggle } from '../../components/Toggle.js';
import { PageTitle } from '../forms.js';
import { useToggleSave } from '../useToggleSave.js';
import {
  INTENT_REVIEW_THRESHOLD,
  PRIVILEGED_INTENTS,
  flagsWithIntent,
  intentEnabled,
  intentLockReason,
} from '../intents.js';

/** The bot: its token (reset, shown once), who may add it, and its privileged intents. */
export function BotPage() {
  const { app, busy, errors, save } = useToggleSave();
  const userCount = app.approximate_user_count;

  return (
    <div className="settings-form">
      <PageTitle title="Bot">
        Your app's bot user: it logs in to the gateway with its token.
      </PageTitle>
      {app.bot === undefined ? null : (
        <p>
          Username: <strong>{app.bot.username}</strong>
          {app.bot.discriminator === '0' ? '' : `#${app.bot.discriminator}`}
        </p>
      )}
      <TokenSection applicationId={app.id} />

      <section aria-labelledby="bot-access">
        <h2 id="bot-access">Authorization</h2>
        <SavedToggle
          label="Public Bot"
          description="Anyone can add the bot to their server. Off: only you can."
          checked={app.bot_public}
          busy={busy !== null}
          error={errors['bot_public']}
          onChange={(on) => void save('bot_public', { bot_public: on })}
        />
        <SavedToggle
          label="Requires OAuth2 Code Grant"
          description="Adding the bot completes the full authorization code grant (needs a redirect URI)."
          checked={app.bot_require_code_grant}
          busy={busy !== null}
          error={errors['bot_require_code_grant']}
          onChange={(on) => void save('bot_require_code_grant', { bot_require_code_grant: on })}
        />
      </section>

      <section aria-labelledby="bot-intents">
        <h2 id="bot-intents">Privileged Gateway Intents</h2>
        <p className="hint">
          Below {INTENT_REVIEW_THRESHOLD.toLocaleString('en-US')} users an app turns these on
          itself; at or above, an intent that is off needs a review.{' '}
          {userCount === undefined
            ? null
            : `Your app reaches about ${userCount.toLocaleString('en-US')} ${userCount === 1 ? 'user' : 'users'}.`}
        </p>
        {PRIVILEGED_INTENTS.map((intent) => (
          <SavedToggle
            key={intent.label}
            label={intent.label}
            description={intent.description}
            checked={intentEnabled(app.flags, intent)}
            lockReason={intentLockReason(app.flags, intent, userCount)}
            busy={busy !== null}
            error={errors[intent.label]}
            onChange={(on) =>
              void save(intent.label, { flags: flagsWithIntent(app.flags, intent, on) })
            }
          />
        ))}
      </section>

      <section aria-labelledby="bot-privacy">
        <h2 id="bot-privacy">Privacy</h2>
        <SavedToggle
          label="Private Channel Obfuscation"
          description="Hide the ids and names of private channels from the bot's gateway events."
          checked={app.private_channel_obfuscation ?? false}
          busy={busy !== null}
          error={errors['private_channel_obfuscation']}
          onChange={(on) =>
            void save('private_channel_obfuscation', { private_channel_obfuscation: on })
          }
        />
      </section>
    </div>
  );
}

function SavedToggle({
  label,
  description,
  checked,
  busy,
  error,
  lockReason,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  busy: boolean;
  error: string | undefined;
  lockReason?: string | undefined;
  onChange: (on: boolean) => void;
}) {
  return (
    <div>
      <Toggle
        label={label}
        description={description}
        checked={checked}
        disabledReason={lockReason}
        onChange={(on) => {
          // Not disabled while saving: that would drop the keyboard focus.
          if (!busy) onChange(on);
        }}
      />
      {error === undefined ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** "Reset Token" behind a confirmation; the new token is shown once, here. */
function TokenSection({ applicationId }: { applicationId: string }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [token, setToken] = useState<string | null>(null);

  const reset = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ token: string }>(
        'POST',
        `/applications/${applicationId}/bot/reset`,
      );
      setToken(answer.token);
      setConfirming(false);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="bot-token">
      <h2 id="bot-token">Token</h2>
      {token === null ? (
        <p className="hint">
          The token is shown once, when it is made. Lost it? Reset it: the old one stops working at
          once and its gateway sessions close.
        </p>
      ) : (
        <>
          <p className="warning" role="status">
            Copy your bot's token now: it will not be shown again.
          </p>
          <CopyField label="Bot token" value={token} secret />
        </>
      )}
      <button
        type="button"
        onClick={() => {
          setError(null);
          setConfirming(true);
        }}
      >
        Reset Token
      </button>
      {confirming ? (
        <ConfirmDialog
          title="Reset Bot's Token?"
          message="Your bot will stop working until you update its code with the new token."
          confirmLabel="Yes, do it!"
          busy={busy}
          error={error}
          onConfirm={() => void reset()}
          onClose={() => {
            setConfirming(false);
          }}
        />
      ) : null}
    </section>
  );
}
