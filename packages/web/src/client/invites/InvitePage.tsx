import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { APIInvite } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { useToken } from '../../auth/session.js';
import { FormError } from '../../components/Field.js';

/**
 * `/invite/{code}`: the guild an invite leads to (GET /invites/{code}, no session needed) and
 * "Accept Invite" (POST /invites/{code} with the session, then the guild). Logged out, the
 * button leads to the login page, which comes back here.
 */
export function InvitePage({ code }: { code: string }) {
  const token = useToken();
  const [, navigate] = useLocation();
  const [invite, setInvite] = useState<APIInvite | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api<APIInvite>('GET', `/invites/${encodeURIComponent(code)}`, {
      query: { with_counts: true },
      auth: false,
      signal: controller.signal,
    }).then(setInvite, (e: unknown) => {
      if (!controller.signal.aborted) setError(errorMessage(e));
    });
    return () => {
      controller.abort();
    };
  }, [code]);
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const joined = await api<APIInvite>('POST', `/invites/${encodeURIComponent(code)}`);
      const guildId = joined.guild?.id ?? invite?.guild?.id;
      const channelId = joined.channel?.id ?? invite?.channel?.id;
      navigate(guildId === undefined ? '/channels/@me' : `/channels/${guildId}/${channelId ?? ''}`);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  const here = `/invite/${encodeURIComponent(code)}`;
  return (
    <main className="auth-page">
      <section className="card auth-card invite-card" aria-labelledby="invite-title">
        {invite === null ? (
          <h1 id="invite-title">{error === null ? 'Loading invite…' : 'Invite invalid'}</h1>
        ) : (
          <>
            <p className="muted">
              {invite.inviter === undefined
                ? 'You have been invited to join'
                : `${invite.inviter.global_name ?? invite.inviter.username} invited you to join`}
            </p>
            <h1 id="invite-title">{invite.guild?.name ?? 'a server'}</h1>
            <p className="invite-counts">
              <span>
                <span className="presence-dot presence-online" aria-hidden="true" />{' '}
                {invite.approximate_presence_count ?? 0} Online
              </span>{' '}
              <span>
                <span className="presence-dot presence-offline" aria-hidden="true" />{' '}
                {invite.approximate_member_count ?? 0} Members
              </span>
            </p>
          </>
        )}
        <FormError message={error} />
        {invite === null ? null : (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => {
              // Logged out: log in (or register) first, then back here to accept.
              if (token === null) navigate(`/login?next=${encodeURIComponent(here)}`);
              else void accept();
            }}
          >
            Accept Invite
          </button>
        )}
        {invite !== null && token === null ? (
          <p className="hint">You will log in first, then come back here.</p>
        ) : null}
        <p>
          <Link href="/channels/@me">Go to Guildhall</Link>
        </p>
      </section>
    </main>
  );
}
