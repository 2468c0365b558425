// An HTTP-interactions bot: the platform POSTs each interaction, signed with the app's key, and
// the answer's body is the reply. Nothing here knows about Guildhall.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { InteractionResponseType, InteractionType, verifyKey } from 'discord-interactions';

/**
 * Listens on a free loopback port; resolves with its URL and a `close`.
 * @param {{ publicKey: string }} options the application's public key (hex)
 */
export async function startHttpBot({ publicKey }) {
  const server = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const signature = request.headers['x-signature-ed25519'];
    const timestamp = request.headers['x-signature-timestamp'];
    const valid =
      typeof signature === 'string' &&
      typeof timestamp === 'string' &&
      (await verifyKey(body, signature, timestamp, publicKey));
    if (!valid) {
      response.writeHead(401).end('invalid request signature');
      return;
    }
    const interaction = JSON.parse(body.toString('utf8'));
    const answer =
      interaction.type === InteractionType.PING
        ? { type: InteractionResponseType.PONG }
        : {
            type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
            data: { content: `hello, ${interaction.member?.user.username ?? 'you'}` },
          };
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/interactions`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
