import { expect, test } from '@playwright/test';
import { loadConfig } from '../../harness/config/config.ts';
import { describeTransportError, type FailureContext } from '../../harness/transport/transport-failures.ts';
import { makeThrowawayPki, type ThrowawayPki } from '../support/certificates.ts';
import { refusingUrl, serveRaw, type LoopbackServer } from '../support/hostile-servers.ts';
import { sendOnce } from '../support/send.ts';
import { forwardingProxy, httpsTarget, httpTarget } from '../support/staging-servers.ts';
import { wire } from '../support/transport-servers.ts';

// Issue 12, transport: say what happened. Each failure a staging user meets is produced for real on
// loopback, and the suite's one line must say what it is, with the fix where there is one, never a
// generic "could not be reached".

interface Met {
  /** Where the request goes. */
  url: string;
  /** The run's variables, besides the base URL and token. */
  variables?: Record<string, string>;
  servers: LoopbackServer[];
}

interface Case {
  description: string;
  meet(pki: ThrowawayPki): Promise<Met>;
  /** The words, with $HOST for the target's host and port, $PROXY for the proxy's, $DIR for the certificates' folder. */
  words: string;
}

const hostOf = (url: string) => new URL(url).host;

async function one(server: Promise<LoopbackServer>, transform: (url: string) => string = (u) => u, variables?: Record<string, string>): Promise<Met> {
  const started = await server;
  return { url: transform(started.url), variables, servers: [started] };
}

/** A proxy that answers every request and tunnel with 407. */
function proxyDemandingAuthentication(): Promise<LoopbackServer> {
  return serveRaw((socket) =>
    socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="staging"\r\ncontent-length: 0\r\n\r\n'),
  );
}

/** A TCP server whose first bytes are not HTTP at all. */
function speakingSsh(): Promise<LoopbackServer> {
  return serveRaw((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'));
}

const CASES: Case[] = [
  {
    description: 'an unknown authority',
    meet: (pki) => one(httpsTarget(pki.server)),
    words: 'the certificate of $HOST is signed by an unknown authority: see CONFORMANCE_CA_FILE (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
  },
  {
    description: 'an authority that neither the public ones nor CONFORMANCE_CA_FILE include',
    meet: async (pki) => ({ ...(await one(httpsTarget(pki.server))), variables: { CONFORMANCE_CA_FILE: pki.strangerClient.certFile } }),
    words:
      'the certificate of $HOST is signed by an authority that neither the public ones nor CONFORMANCE_CA_FILE ($DIR/stranger-client.crt) include (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
  },
  {
    description: 'a self-signed certificate',
    meet: (pki) => one(httpsTarget(pki.ca)),
    words: 'the certificate of $HOST is signed by an unknown authority (it is self-signed): see CONFORMANCE_CA_FILE (DEPTH_ZERO_SELF_SIGNED_CERT)',
  },
  {
    description: 'a certificate for another host',
    meet: (pki) => one(httpsTarget(pki.otherHost), undefined, { CONFORMANCE_CA_FILE: pki.caFile }),
    words:
      'the certificate of $HOST is for "DNS:admin.staging.invalid", not for 127.0.0.1: give a host name it names in the base URL (ERR_TLS_CERT_ALTNAME_INVALID)',
  },
  {
    description: 'an expired certificate',
    meet: (pki) => one(httpsTarget(pki.expired), undefined, { CONFORMANCE_CA_FILE: pki.caFile }),
    words: 'the certificate of $HOST has expired; the target must renew it (CERT_HAS_EXPIRED)',
  },
  {
    description: 'https to a plain-http port',
    meet: () => one(httpTarget(), (url) => url.replace('http:', 'https:')),
    words:
      '$HOST does not speak TLS (it answered the handshake with something else, plain HTTP most likely): use http:// in the base URL (ERR_SSL_WRONG_VERSION_NUMBER)',
  },
  {
    description: 'plain http to a TLS port',
    meet: (pki) => one(httpsTarget(pki.server), (url) => url.replace('https:', 'http:')),
    words: '$HOST closed the connection before answering; if the port speaks TLS, use https:// in the base URL (UND_ERR_SOCKET)',
  },
  {
    description: 'a gateway that demands a client certificate',
    meet: (pki) => one(httpsTarget(pki.server, pki.ca.cert), undefined, { CONFORMANCE_CA_FILE: pki.caFile }),
    words: '$HOST demands a client certificate: set CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED)',
  },
  {
    description: 'a gateway that does not accept the client certificate',
    meet: (pki) =>
      one(httpsTarget(pki.server, pki.ca.cert), undefined, {
        CONFORMANCE_CA_FILE: pki.caFile,
        CONFORMANCE_CLIENT_CERT: pki.strangerClient.certFile,
        CONFORMANCE_CLIENT_KEY: pki.strangerClient.keyFile,
      }),
    words:
      '$HOST closed the connection before answering; a gateway that does not accept the client certificate of CONFORMANCE_CLIENT_CERT ($DIR/stranger-client.crt) does this (UND_ERR_SOCKET)',
  },
  {
    description: 'a port with nothing listening',
    meet: async () => ({ url: await refusingUrl(), servers: [] }),
    words: '$HOST refused the connection: nothing listens there; check the base URL (ECONNREFUSED)',
  },
  {
    description: 'a reset before any answer',
    meet: () => one(serveRaw((socket) => socket.resetAndDestroy())),
    words: '$HOST reset the connection before answering (ECONNRESET)',
  },
  {
    description: 'a body shorter than its Content-Length',
    meet: () => one(serveRaw((socket) => socket.end(wire(200, { 'content-type': 'application/json', 'content-length': '100' }, Buffer.from('{"version"'))))),
    words: 'the body broke off after status 200: the connection ended before the body reached its Content-Length (UND_ERR_RES_CONTENT_LENGTH_MISMATCH)',
  },
  {
    description: 'both Content-Length and chunked transfer, the chunks shorter',
    meet: () =>
      one(
        serveRaw((socket) =>
          socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'),
        ),
      ),
    words:
      "the answer's body is not as long as its Content-Length says: it was cut short, or it came chunked as well (Transfer-Encoding: chunked beside Content-Length, which HTTP/1.1 forbids a sender; RFC 9112, 6.2) (UND_ERR_RES_CONTENT_LENGTH_MISMATCH)",
  },
  {
    description: 'headers larger than the suite reads',
    meet: () => one(serveRaw((socket) => socket.end(wire(200, { 'x-padding': 'a'.repeat(70_000) })))),
    words: "the answer's headers are larger than 16384 bytes, the most the suite reads (UND_ERR_HEADERS_OVERFLOW)",
  },
  {
    description: 'a status below 100',
    meet: () => one(serveRaw((socket) => socket.end('HTTP/1.1 099 Odd\r\ncontent-length: 0\r\n\r\n'))),
    words: '$HOST answered with a status below 100, which HTTP/1.1 does not have (ERR_ASSERTION)',
  },
  {
    description: 'a port that speaks another protocol',
    meet: () => one(speakingSsh()),
    words:
      '$HOST answered with something that is not HTTP/1.1 ("Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)"; HTTPParserError)',
  },
  {
    description: 'a proxy with nothing listening',
    meet: async () => {
      const target = await httpTarget();
      return { url: target.url, variables: { HTTP_PROXY: await refusingUrl() }, servers: [target] };
    },
    words: 'the proxy $PROXY (HTTP_PROXY) refused the connection: nothing listens there; check HTTP_PROXY (ECONNREFUSED)',
  },
  {
    description: 'a proxy that demands authentication, for an https target',
    meet: async (pki) => {
      const [target, proxy] = [await httpsTarget(pki.server), await proxyDemandingAuthentication()];
      return { url: target.url, variables: { HTTPS_PROXY: proxy.url, CONFORMANCE_CA_FILE: pki.caFile }, servers: [target, proxy] };
    },
    words:
      'the proxy $PROXY (HTTPS_PROXY) demands authentication (407): give its user and password in the proxy URL, as http://user:password@host:port (UND_ERR_ABORTED)',
  },
  {
    description: 'a proxy that demands authentication, for an http target',
    meet: async () => {
      const [target, proxy] = [await httpTarget(), await proxyDemandingAuthentication()];
      return { url: target.url, variables: { HTTP_PROXY: proxy.url }, servers: [target, proxy] };
    },
    words:
      'the proxy $PROXY (HTTP_PROXY) demands authentication (407): give its user and password in the proxy URL, as http://user:password@host:port (UND_ERR_INVALID_ARG)',
  },
  {
    description: 'a proxy that refuses to open a tunnel',
    // The forwarding proxy carries nothing beyond loopback; the suite itself connects to the proxy alone.
    meet: async () => {
      const proxy = await forwardingProxy();
      return { url: 'https://admin.staging.invalid', variables: { HTTPS_PROXY: proxy.url }, servers: [proxy] };
    },
    words:
      'the proxy $PROXY (HTTPS_PROXY) refused to carry the request to admin.staging.invalid: it answered 403; NO_PROXY lists the hosts reached without it (UND_ERR_ABORTED)',
  },
];

let pki: ThrowawayPki;
test.beforeAll(async () => {
  pki = await makeThrowawayPki();
});
test.afterAll(() => pki.remove());

for (const c of CASES) {
  test(`${c.description} is worded as what it is`, async () => {
    const met = await c.meet(pki);
    try {
      const network = loadConfig({ CONFORMANCE_BASE_URL: met.url, CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123', ...met.variables }, pki.dir).network;
      const exchange = await sendOnce(met.url, { network, timeoutMs: 3000 });
      const proxy = met.variables?.HTTP_PROXY ?? met.variables?.HTTPS_PROXY;
      const words = c.words
        .replaceAll('$HOST', hostOf(met.url))
        .replaceAll('$DIR', pki.dir)
        .replaceAll('$PROXY', proxy === undefined ? '' : hostOf(proxy));
      expect(exchange.failure).toBe(words);
      expect(exchange.failure).not.toContain('could not be reached');
    } finally {
      for (const server of met.servers) await server.close();
    }
  });
}

// Failures a loopback network cannot produce, as Node and undici report them (code, syscall, host name or
// address), worded by the same function.

const CONTEXT: FailureContext = {
  url: new URL('https://admin.staging.example.com/api/admin/projects'),
  timeoutMs: 1500,
  proxies: [{ variable: 'HTTPS_PROXY', url: new URL('http://proxy.staging.example.com:3128'), schemes: ['https:'] }],
};

const systemError = (code: string, fields: Record<string, unknown>) => Object.assign(new Error(`${fields.syscall} ${code}`), { code, ...fields });

const WITHOUT_LOOPBACK: { description: string; error: unknown; words: string }[] = [
  {
    description: 'a host name DNS does not know',
    error: systemError('ENOTFOUND', { syscall: 'getaddrinfo', hostname: 'admin.staging.example.com' }),
    words: 'the host name admin.staging.example.com is not known to DNS: check the base URL (ENOTFOUND)',
  },
  {
    description: "a proxy's host name DNS does not know",
    error: systemError('ENOTFOUND', { syscall: 'getaddrinfo', hostname: 'proxy.staging.example.com' }),
    words: 'the host name of the proxy proxy.staging.example.com (HTTPS_PROXY) is not known to DNS: check HTTPS_PROXY (ENOTFOUND)',
  },
  {
    description: 'a DNS server that does not answer',
    error: systemError('EAI_AGAIN', { syscall: 'getaddrinfo', hostname: 'admin.staging.example.com' }),
    words: 'the host name admin.staging.example.com could not be looked up just now (DNS did not answer; EAI_AGAIN)',
  },
  {
    description: 'no route to the host',
    error: systemError('EHOSTUNREACH', { syscall: 'connect', address: '10.0.0.7', port: 443 }),
    words: 'admin.staging.example.com could not be reached: no route to it from this machine (EHOSTUNREACH)',
  },
  {
    description: 'a connection that is never accepted',
    error: systemError('ETIMEDOUT', { syscall: 'connect', address: '10.0.0.7', port: 443 }),
    words: 'admin.staging.example.com did not accept the connection in time (ETIMEDOUT)',
  },
  {
    description: 'a certificate not valid yet',
    error: systemError('CERT_NOT_YET_VALID', {}),
    words: 'the certificate of admin.staging.example.com is not valid yet; check the clocks of this machine and of the target (CERT_NOT_YET_VALID)',
  },
  {
    description: "undici's own connect timeout",
    error: systemError('UND_ERR_CONNECT_TIMEOUT', {}),
    words: 'no connection to admin.staging.example.com within 1500 ms (CONFORMANCE_TIMEOUT_MS)',
  },
  {
    description: "undici's own headers timeout",
    error: systemError('UND_ERR_HEADERS_TIMEOUT', {}),
    words: 'no answer within 1500 ms (CONFORMANCE_TIMEOUT_MS)',
  },
  { description: 'an error nobody foresaw', error: systemError('EWHATEVER', { syscall: 'read' }), words: 'read EWHATEVER (EWHATEVER)' },
];

for (const c of WITHOUT_LOOPBACK) {
  test(`${c.description} is worded as what it is`, () => {
    expect(describeTransportError(c.error, CONTEXT)).toBe(c.words);
  });
}
