import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../harness/config/config.ts';
import type { NetworkSettings } from '../../harness/transport/network.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { makeThrowawayPki, type ThrowawayPki } from '../support/certificates.ts';
import { withServer } from '../support/hostile-servers.ts';
import { sendOnce } from '../support/send.ts';
import { forwardingProxy, httpsTarget, httpTarget } from '../support/staging-servers.ts';

// Issue 12, transport: staging networks. The settings are read as a run reads them (loadConfig) and the
// suite's own transport sends one request through them, in this process, to loopback servers made here:
// an HTTPS target signed by a throw-away authority, a gateway that demands a client certificate, a proxy.

let pki: ThrowawayPki;
test.beforeAll(async () => {
  pki = await makeThrowawayPki();
});
test.afterAll(() => pki.remove());

/** The network settings a run would use with these variables, read from a folder with no .env. */
function networkOf(variables: Record<string, string>): NetworkSettings {
  return loadConfig({ CONFORMANCE_BASE_URL: 'https://127.0.0.1:1', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123', ...variables }, pki.dir).network;
}

const asAdmin = { credential: 'admin', path: '/api/admin/projects' };
const sendAsAdmin = (url: string, network: NetworkSettings) => sendOnce(url, { ...asAdmin, network, timeoutMs: 3000, token: REFERENCE_FIXTURES.adminToken });

test('a target whose certificate a private authority signed is trusted through CONFORMANCE_CA_FILE', async () => {
  await withServer(httpsTarget(pki.server), async (target) => {
    const exchange = await sendAsAdmin(target.url, networkOf({ CONFORMANCE_CA_FILE: pki.caFile }));
    expect(exchange.failure).toBeUndefined();
    expect(exchange.status).toBe(200);
    expect(JSON.parse(exchange.bodyText ?? '')).toMatchObject({ version: 1 });
  });
});

test('the same target is refused without CONFORMANCE_CA_FILE, and nothing is sent to it', async () => {
  await withServer(httpsTarget(pki.server), async (target) => {
    const exchange = await sendAsAdmin(target.url, networkOf({}));
    expect(exchange.status).toBeUndefined();
    expect(exchange.failure).toBeDefined();
    expect(target.seen).toEqual([]);
  });
});

test('a gateway that demands a client certificate is shown CONFORMANCE_CLIENT_CERT', async () => {
  await withServer(httpsTarget(pki.server, pki.ca.cert), async (gateway) => {
    const exchange = await sendAsAdmin(
      gateway.url,
      networkOf({ CONFORMANCE_CA_FILE: pki.caFile, CONFORMANCE_CLIENT_CERT: pki.client.certFile, CONFORMANCE_CLIENT_KEY: pki.client.keyFile }),
    );
    expect(exchange.failure).toBeUndefined();
    expect(exchange.status).toBe(200);
    expect(gateway.clientNames).toEqual(['conformance-suite']);
  });
});

test('the gateway refuses a run without a client certificate, and one whose certificate it does not trust', async () => {
  await withServer(httpsTarget(pki.server, pki.ca.cert), async (gateway) => {
    const without = await sendAsAdmin(gateway.url, networkOf({ CONFORMANCE_CA_FILE: pki.caFile }));
    const stranger = await sendAsAdmin(
      gateway.url,
      networkOf({ CONFORMANCE_CA_FILE: pki.caFile, CONFORMANCE_CLIENT_CERT: pki.strangerClient.certFile, CONFORMANCE_CLIENT_KEY: pki.strangerClient.keyFile }),
    );
    for (const exchange of [without, stranger]) {
      expect(exchange.status).toBeUndefined();
      expect(exchange.failure).toBeDefined();
    }
    expect(gateway.seen).toEqual([]);
  });
});

test('HTTP_PROXY carries a request to an http target through the proxy, as an absolute-form request', async () => {
  await withServer(httpTarget(), (target) =>
    withServer(forwardingProxy(), async (proxy) => {
      const exchange = await sendAsAdmin(target.url, networkOf({ HTTP_PROXY: proxy.url }));
      expect(exchange.status).toBe(200);
      expect(proxy.seen.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${target.url}/api/admin/projects`]);
      expect(target.seen).toHaveLength(1);
    }),
  );
});

test('HTTPS_PROXY carries a request to an https gateway through a CONNECT tunnel, with the private authority and the client certificate inside it', async () => {
  await withServer(httpsTarget(pki.server, pki.ca.cert), (gateway) =>
    withServer(forwardingProxy(), async (proxy) => {
      const network = networkOf({
        HTTPS_PROXY: proxy.url,
        CONFORMANCE_CA_FILE: pki.caFile,
        CONFORMANCE_CLIENT_CERT: pki.client.certFile,
        CONFORMANCE_CLIENT_KEY: pki.client.keyFile,
      });
      const exchange = await sendAsAdmin(gateway.url, network);
      expect(exchange.failure).toBeUndefined();
      expect(exchange.status).toBe(200);
      expect(proxy.seen.map((r) => `${r.method} ${r.path}`)).toEqual([`CONNECT ${new URL(gateway.url).host}`]);
      expect(gateway.clientNames).toEqual(['conformance-suite']);
    }),
  );
});

test('NO_PROXY names the hosts reached directly, past the proxy', async () => {
  await withServer(httpTarget(), (target) =>
    withServer(forwardingProxy(), async (proxy) => {
      const exchange = await sendAsAdmin(target.url, networkOf({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' }));
      expect(exchange.status).toBe(200);
      expect(proxy.seen).toEqual([]);
      expect(target.seen).toHaveLength(1);
    }),
  );
});

test("the lower-case spelling of a proxy variable wins, and a proxy URL's credentials go to the proxy as Proxy-Authorization", async () => {
  await withServer(httpTarget(), (target) =>
    withServer(forwardingProxy(), async (proxy) => {
      const withCredentials = proxy.url.replace('http://', 'http://suite:s3cret@');
      const exchange = await sendAsAdmin(target.url, networkOf({ http_proxy: withCredentials, HTTP_PROXY: 'http://127.0.0.1:9' }));
      expect(exchange.status).toBe(200);
      expect(proxy.proxyAuthorizations).toEqual([`Basic ${Buffer.from('suite:s3cret').toString('base64')}`]);
      // The target never sees what was meant for the proxy.
      expect(target.seen).toHaveLength(1);
    }),
  );
});

test('a target file names its authority and client certificate by paths relative to itself', () => {
  const file = path.join(pki.dir, 'staging.yaml');
  writeFileSync(file, 'baseUrl: https://127.0.0.1:1\nadminToken: admin-token-0123\ncaFile: ca.crt\nclientCert: client.crt\nclientKey: client.key\n');
  const network = loadConfig({ CONFORMANCE_TARGET: file }, path.dirname(pki.dir)).network;
  expect(network.caFile).toBe(pki.caFile);
  expect(network.clientCertificate).toMatchObject({ certFile: pki.client.certFile, keyFile: pki.client.keyFile });
});
