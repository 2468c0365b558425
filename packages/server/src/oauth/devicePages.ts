/**
 * The device flow's pages at /activate: a signed-in person types the code a device shows, then
 * approves or denies the device's request (oauth/deviceFlow.ts redeems it).
 */
import type { FastifyInstance } from 'fastify';
import { deviceCodePage, deviceConsentPage, errorPage, messagePage } from './pages.js';
import { readParams } from './params.js';
import type { OAuthRouteDeps } from './routeDeps.js';
import { sameSecret, send, sessionCsrf, type PageSession } from './pageSession.js';

export function registerDevicePages(
  root: FastifyInstance,
  deps: Pick<OAuthRouteDeps, 'grants'>,
  pages: PageSession,
) {
  const { grants } = deps;
  const { guarded, sessionOf, showLogin } = pages;

  root.get(
    '/activate',
    { config: { auth: 'none' } },
    guarded(async (request, reply) => {
      const params = readParams(request.query);
      const session = await sessionOf(request);
      const next =
        params.user_code === undefined
          ? '/activate'
          : `/activate?user_code=${encodeURIComponent(params.user_code)}`;
      if (session === null) return showLogin(request, reply, next);
      if (params.user_code === undefined) return send(reply, deviceCodePage({}));
      const found = await grants.findPendingDevice(params.user_code);
      if (found === null) {
        return send(reply, deviceCodePage({ error: 'That code is unknown or has expired.' }));
      }
      return send(
        reply,
        deviceConsentPage({
          appName: found.application.name,
          scopes: found.record.scopes,
          userCode: found.record.userCode,
          csrf: sessionCsrf(session.token, 'device'),
          username: session.principal.user.globalName ?? session.principal.user.username,
        }),
      );
    }),
  );

  root.post(
    '/activate',
    { config: { auth: 'none' } },
    guarded(async (request, reply) => {
      const params = readParams(request.body);
      const session = await sessionOf(request);
      if (session === null) return showLogin(request, reply, '/activate');
      if (!sameSecret(params.csrf_token ?? '', sessionCsrf(session.token, 'device'))) {
        return send(reply, errorPage('The form expired; enter the code again.', 403));
      }
      const approve = params.decision === 'authorize';
      const done = await grants.decideDevice({
        user: session.principal.user,
        userCode: params.user_code ?? '',
        approve,
      });
      if (!done)
        return send(reply, deviceCodePage({ error: 'That code is unknown or has expired.' }));
      return send(
        reply,
        messagePage(
          approve ? 'Device authorized' : 'Request denied',
          approve ? 'Return to your device to continue.' : 'The device was not authorized.',
        ),
      );
    }),
  );
}
