/**
 * @module voice/tlsCert: the voice gateway's TLS certificate. Voice clients (@discordjs/voice)
 * always dial `wss://<endpoint>`, so the voice port speaks TLS as well as plain WebSocket. The
 * certificate is the operator's (`--voice-tls-cert`, `--voice-tls-key`), or else a development
 * certificate made at first start in `<dataDir>/voice-tls/` (http/tlsCert.ts makes it); Node
 * clients trust it with `NODE_EXTRA_CA_CERTS=<that cert.pem>` (docs/voice.md#tls).
 */
import { loadTls, type TlsMaterial } from '../http/tlsCert.js';

export type VoiceTlsMaterial = TlsMaterial;

export const DEV_CERT_DIR = 'voice-tls';

/** The certificate and key the voice port serves. */
export function loadVoiceTls(options: Parameters<typeof loadTls>[1]): Promise<VoiceTlsMaterial> {
  return loadTls(
    {
      certFlag: '--voice-tls-cert',
      keyFlag: '--voice-tls-key',
      label: 'voice TLS',
      devDir: DEV_CERT_DIR,
      commonName: 'Guildhall voice (development)',
    },
    options,
  );
}
