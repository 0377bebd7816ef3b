import type { NetworkSettings } from '../../harness/transport/network.ts';
import type { Credential, Exchange } from '../../harness/transport/exchange.ts';
import { DecodedBodies } from '../../harness/transport/decoded-bodies.ts';
import { send } from '../../harness/transport/http.ts';
import { openNetwork } from '../../harness/transport/network.ts';

export interface SendOptions {
  timeoutMs?: number;
  maxBodyBytes?: number;
  path?: string;
  credential?: Credential;
  /** The authorization header sent. */
  token?: string;
  /** Proxies, authorities and client certificate, as the configuration gives them; none by default. */
  network?: NetworkSettings;
}

/** Sends one request of the suite's, with its own transport, in this process. */
export async function sendOnce(baseUrl: string, options: SendOptions = {}): Promise<Exchange> {
  const timeoutMs = options.timeoutMs ?? 1000;
  const network = openNetwork(timeoutMs, options.network);
  try {
    const request = { method: 'GET' as const, path: options.path ?? '/api/admin/projects', credential: options.credential ?? 'admin' };
    return await send(request, {
      baseUrl,
      timeoutMs,
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      userAgent: 'self-test',
      tokenFor: () => options.token ?? 'self-test-token',
      network,
      bodies: new DecodedBodies(),
    });
  } finally {
    await network.close();
  }
}
