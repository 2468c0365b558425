/* global document, fetch, history, location, URL */
// The example activity's page (docs/activities.md#the-example-activity): the official embedded
// app SDK, unchanged, from the backend's /sdk/ (its ESM build). It waits for READY, asks the
// person to authorize it, has its backend exchange the code, authenticates with the access
// token, sets the person's rich presence and lists the participants as they come and go; its
// store sells the app's SKUs, its moments upload a picture and share it, and it posts a score
// with the app's /score command. Its backend says who the proxy host signed its requests for, and
// a new proxy ticket (REQUEST_PROXY_TICKET_REFRESH) goes in the page's address, which its
// requests carry as their Referer. It lists who speaks in its channel as they start and stop.
import { DiscordSDK } from '/sdk/index.mjs';

const show = (id, text) => {
  document.getElementById(id).textContent = text;
};

function renderParticipants(participants) {
  const list = document.getElementById('participants');
  list.replaceChildren(
    ...participants.map((p) => {
      const item = document.createElement('li');
      item.textContent = p.nickname ?? p.global_name ?? p.username;
      return item;
    }),
  );
}

/** The store: the app's SKUs, each owned or with a Buy button (START_PURCHASE). */
async function openStore(sdk) {
  const { skus } = await sdk.commands.getSkus();
  const { entitlements } = await sdk.commands.getEntitlements();
  const owned = new Set(entitlements.map((entitlement) => entitlement.sku_id));
  const render = () => {
    document.getElementById('skus').replaceChildren(
      ...skus.map((sku) => {
        const item = document.createElement('li');
        item.textContent = owned.has(sku.id) ? `${sku.name} (owned)` : sku.name;
        if (!owned.has(sku.id)) {
          const buy = document.createElement('button');
          buy.textContent = `Buy ${sku.name}`;
          buy.addEventListener('click', () => {
            sdk.commands.startPurchase({ sku_id: sku.id }).catch((error) => {
              show('status', `Purchase failed: ${error?.message ?? ''}`);
            });
          });
          item.append(' ', buy);
        }
        return item;
      }),
    );
  };
  render();
  // What the person buys arrives as ENTITLEMENT_CREATE.
  await sdk.subscribe('ENTITLEMENT_CREATE', ({ entitlement }) => {
    owned.add(entitlement.sku_id);
    render();
  });
}

/**
 * Moments: a picture the person uploads through the client (INITIATE_IMAGE_UPLOAD), then shares
 * in a conversation they pick (OPEN_SHARE_MOMENT_DIALOG).
 */
function openMoments(sdk) {
  let imageUrl = null;
  const share = document.getElementById('share');
  document.getElementById('upload').addEventListener('click', () => {
    sdk.commands.initiateImageUpload().then(
      ({ image_url: url }) => {
        imageUrl = url;
        share.disabled = false;
        show('picture', `uploaded: ${url}`);
      },
      (error) => {
        show('picture', `not uploaded (${error?.message ?? 'failed'})`);
      },
    );
  });
  share.addEventListener('click', () => {
    sdk.commands.openShareMomentDialog({ mediaUrl: imageUrl }).then(
      () => {
        show('picture', 'shared');
      },
      (error) => {
        show('picture', `not shared (${error?.message ?? 'failed'})`);
      },
    );
  });
}

/** The app's `/score` command, run for the person in the activity's channel (SHARE_INTERACTION). */
function openScore(sdk) {
  document.getElementById('post-score').addEventListener('click', () => {
    sdk.commands
      .shareInteraction({ command: 'score', options: [{ name: 'points', value: '42' }] })
      .then(
        ({ success }) => {
          show('score', success ? 'posted' : 'the app did not answer');
        },
        (error) => {
          show('score', `not posted (${error?.message ?? 'failed'})`);
        },
      );
  });
}

/** Who speaks in the activity's channel: SPEAKING_START and SPEAKING_STOP (rpc.voice.read). */
async function openSpeakers(sdk) {
  const speaking = new Set();
  const render = () => {
    show('speaking', speaking.size === 0 ? 'nobody' : [...speaking].join(', '));
  };
  // Each event changes the set, then the list shows it.
  const follow = (evt, change) =>
    sdk.subscribe(
      evt,
      ({ user_id: userId }) => {
        change(userId);
        render();
      },
      { channel_id: sdk.channelId },
    );
  await follow('SPEAKING_START', (userId) => speaking.add(userId));
  await follow('SPEAKING_STOP', (userId) => speaking.delete(userId));
  render();
}

/** Who the backend says the proxy signed this page's requests for. */
async function whoAmI() {
  const response = await fetch('/.proxy/api/whoami');
  const body = await response.json();
  return response.ok ? { userId: body.user_id } : { error: body.error };
}

/**
 * Proxy authentication: the backend's answer, and on "expired proxy token" (or a click) a new
 * ticket from the client, put in the page's address so that the next requests carry it.
 */
function openProxyCheck(sdk) {
  const check = async (refreshed) => {
    let who = await whoAmI();
    if (who.error === 'expired proxy token' || refreshed) {
      const { ticket } = await sdk.commands.requestProxyTicketRefresh();
      const url = new URL(location.href);
      url.searchParams.set('discord_proxy_ticket', ticket);
      history.replaceState(history.state, '', url);
      who = await whoAmI();
      refreshed = true;
    }
    const note = refreshed ? ' (new ticket)' : '';
    show('proxy', who.error === undefined ? `signed for ${who.userId}${note}` : who.error);
  };
  document.getElementById('refresh-ticket').addEventListener('click', () => {
    check(true).catch((error) => {
      show('proxy', `not refreshed (${error?.message ?? 'failed'})`);
    });
  });
  return check(false);
}

async function main() {
  const config = await (await fetch('/.proxy/api/config')).json();
  const clientId = config.client_id;
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  show('status', 'Ready');

  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: 'code',
    state: '',
    prompt: 'none',
    scope: ['identify', 'rpc.activities.write', 'rpc.voice.read'],
  });
  show('status', 'Authorized');
  const response = await fetch('/.proxy/api/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const { access_token: accessToken } = await response.json();
  const auth = await sdk.commands.authenticate({ access_token: accessToken });
  show('user', auth.user.global_name ?? auth.user.username);
  show('status', 'Authenticated');

  const channel = sdk.channelId === null ? null : { id: sdk.channelId };
  show('channel', channel === null ? 'none' : channel.id);

  await sdk.commands.setActivity({
    activity: {
      type: 0,
      details: 'Trying the example activity',
      state: 'In the lobby',
      timestamps: { start: Date.now() },
    },
  });

  const { participants } = await sdk.commands.getInstanceConnectedParticipants();
  renderParticipants(participants);
  await sdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', (event) => {
    renderParticipants(event.participants);
  });
  if (channel !== null) await openSpeakers(sdk);
  if (config.checks_proxy) await openProxyCheck(sdk);
  else show('proxy', 'not checked (the backend has no PUBLIC_KEY)');
  await openStore(sdk);
  openMoments(sdk);
  openScore(sdk);
  show('status', 'Playing');
}

main().catch((error) => {
  show('status', `Failed: ${error?.message ?? JSON.stringify(error)}`);
});
