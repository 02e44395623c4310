import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MediaLookup } from '../../src/media/check-media-url.js';
import { fetchByteRange } from '../../src/media/fetch-byte-range.js';
import { nonPublicAddressReason } from '../../src/media/is-public-address.js';
import { MediaFailure } from '../../src/media/media-failure.js';
import { MAX_MEDIA_REDIRECTS, MediaFetcher } from '../../src/media/media-fetcher.js';
import { buildPng } from './support/build-png.js';
import { MediaFileServer } from './support/media-file-server.js';

// Issue 13 item 7: inbound media cannot reach private places.

const PNG = buildPng();

/** A resolver that knows only the names given (anything else: ENOTFOUND). */
function resolver(names: Record<string, readonly string[]>): MediaLookup {
  return async (hostname) => {
    const found = names[hostname];
    if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
}

/** The default rule, except that the test server's 127.0.0.1 counts as public: the first hop passes, so a redirect meets the hop check. */
const loopbackIsPublic = (address: string): string | undefined => (address === '127.0.0.1' ? undefined : nonPublicAddressReason(address));

describe(MediaFetcher, () => {
  let files: MediaFileServer;
  let port: string;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    files = await MediaFileServer.start();
    port = new URL(files.url('/')).port;
  });
  afterAll(async () => {
    await files.close();
  });
  beforeEach(() => {
    files.requests.length = 0;
  });

  async function refusal(fetcher: MediaFetcher, url: string): Promise<string> {
    const error: unknown = await fetcher.get(url, { signal }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(MediaFailure);
    return (error as MediaFailure).message;
  }

  describe('when private addresses are not allowed (the default)', () => {
    const fetcher = new MediaFetcher({ allowPrivateAddresses: () => false });

    it.each(['file:///etc/passwd', 'data:image/png;base64,iVBORw0KGgo=', 'ftp://example.com/a.png', 'gopher://example.com/'])('refuses %s: only http(s) is fetched', async (url) => {
      expect(await refusal(fetcher, url)).toMatch(/only http\(s\):\/\/ URLs are fetched/);
      await expect(fetcher.check(url)).rejects.toThrow(MediaFailure);
    });

    it('refuses the loopback file server, and it receives no request', async () => {
      expect(await refusal(fetcher, files.serve('/cat.png', { body: PNG }))).toMatch(/private place: 127\.0\.0\.1, a loopback address/);
      expect(files.requests).toHaveLength(0);
    });

    it.each([
      ['http://10.0.0.1/a.png', /10\.0\.0\.1, a private address/],
      ['http://192.168.1.1/a.png', /192\.168\.1\.1, a private address/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254, a link-local address/],
      ['http://100.64.1.1/', /carrier-grade NAT/],
      ['http://[::1]/a.png', /::1, a loopback address/],
      ['http://[fd00::1]/', /unique local/],
      ['http://[::ffff:127.0.0.1]/a.png', /loopback.*, in IPv4-mapped/],
      ['http://2130706433/a.png', /127\.0\.0\.1, a loopback address/],
      ['http://0x7f.1/a.png', /127\.0\.0\.1, a loopback address/],
      ['http://017700000001/a.png', /127\.0\.0\.1, a loopback address/],
      ['http://0/a.png', /0\.0\.0\.0, an unspecified/],
      ['https://localhost/a.png', /localhost resolves to .*loopback/],
    ])('refuses %s in any spelling the URL parser normalises', async (url, reason) => {
      expect(await refusal(fetcher, url)).toMatch(reason);
    });

    it('refuses a public-looking name that resolves to 127.0.0.1, or to a private address among public ones', async () => {
      const tricky = new MediaFetcher({
        allowPrivateAddresses: () => false,
        lookup: resolver({ 'cdn.example.com': ['127.0.0.1'], 'mixed.example.com': ['93.184.216.34', '10.0.0.5'] }),
      });
      files.serve('/cat.png', { body: PNG });

      expect(await refusal(tricky, `http://cdn.example.com:${port}/cat.png`)).toMatch(/cdn\.example\.com resolves to 127\.0\.0\.1, a loopback address/);
      expect(await refusal(tricky, `http://mixed.example.com:${port}/cat.png`)).toMatch(/mixed\.example\.com resolves to 10\.0\.0\.5/);
      expect(files.requests).toHaveLength(0);
    });

    describe('when an allowed server redirects', () => {
      const hops = new MediaFetcher({
        allowPrivateAddresses: () => false,
        refuseAddress: loopbackIsPublic,
        lookup: resolver({ 'internal.corp': ['10.1.2.3'], 'files.test': ['127.0.0.1'] }),
      });

      it.each([
        ['http://169.254.169.254/latest/meta-data/', /redirect 1 \(to http:\/\/169\.254\.169\.254\/latest\/meta-data\/\): .*link-local/],
        ['http://internal.corp/admin', /redirect 1 .*internal\.corp resolves to 10\.1\.2\.3, a private address/],
        ['http://[::1]/secret', /redirect 1 .*::1, a loopback address/],
        ['file:///etc/passwd', /redirect 1 .*only http\(s\)/],
      ])('refuses the hop to %s before requesting it', async (location, reason) => {
        const url = files.redirect('/go', location);

        expect(await refusal(hops, url)).toMatch(reason);
        expect(files.requests.map((request) => request.path)).toEqual(['/go']);
      });

      it('follows redirects between allowed places, relative ones too, and keeps the Range header', async () => {
        files.serve('/cat.png', { body: PNG });
        files.redirect('/second', `http://files.test:${port}/cat.png`, 307);
        const url = files.redirect('/first', '/second', 301);

        const response = await hops.get(url, { headers: { range: 'bytes=0-7' }, signal });

        expect(response.status).toBe(206);
        expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG.subarray(0, 8));
        expect(files.requests.map((request) => [request.path, request.range])).toEqual([
          ['/first', 'bytes=0-7'],
          ['/second', 'bytes=0-7'],
          ['/cat.png', 'bytes=0-7'],
        ]);
      });

      it(`gives up after ${MAX_MEDIA_REDIRECTS} redirects`, async () => {
        const url = files.redirect('/loop', '/loop');

        expect(await refusal(hops, url)).toMatch(/more than 5 redirects/);
        expect(files.requests).toHaveLength(MAX_MEDIA_REDIRECTS + 1);
      });

      it('refuses the hop for a video Range read too', async () => {
        const url = files.redirect('/clip.mp4', 'http://192.168.0.2/clip.mp4');

        await expect(fetchByteRange(hops, url, 0, 16, signal)).rejects.toThrow(/redirect 1 .*192\.168\.0\.2, a private address/);
      });
    });

    describe('the connection', () => {
      it('goes to the address that was checked: a name that turns private after the check (DNS rebinding) is refused', async () => {
        const answers = [['93.184.216.34'], ['127.0.0.1']];
        const rebinding = new MediaFetcher({ allowPrivateAddresses: () => false, lookup: async () => answers.shift() ?? ['127.0.0.1'] });
        files.serve('/cat.png', { body: PNG });

        expect(await refusal(rebinding, `http://rebind.example:${port}/cat.png`)).toMatch(/rebind\.example resolves to 127\.0\.0\.1, a loopback address/);
        expect(answers).toHaveLength(0);
        expect(files.requests).toHaveLength(0);
      });

      it('uses the checked answer, not a second resolver', async () => {
        const pinned = new MediaFetcher({ allowPrivateAddresses: () => false, refuseAddress: loopbackIsPublic, lookup: resolver({ 'only-here.test': ['127.0.0.1'] }) });
        files.serve('/cat.png', { body: PNG, contentType: 'image/png' });

        const response = await pinned.get(`http://only-here.test:${port}/cat.png`, { signal });

        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
      });

      it('decodes a gzip body as fetch would', async () => {
        const server = createServer((_request, response) => response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(PNG)));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const fetcher = new MediaFetcher({ allowPrivateAddresses: () => true });
          const response = await fetcher.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/cat.png`, { signal });

          expect(response.headers.get('content-encoding')).toBeNull();
          expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
        } finally {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      });
    });

    it('does not read local files', () => {
      expect(fetcher.localFilesAllowed()).toBe(false);
    });
  });

  describe('when allow_private_addresses is true', () => {
    let allowed = true;
    const fetcher = new MediaFetcher({ allowPrivateAddresses: () => allowed });
    beforeEach(() => {
      allowed = true;
    });

    it('lets the loopback server through, redirects on loopback too, and allows local files', async () => {
      files.serve('/cat.png', { body: PNG });
      const url = files.redirect('/go', '/cat.png');

      const response = await fetcher.get(url, { signal });

      expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
      expect(fetcher.localFilesAllowed()).toBe(true);
    });

    it('reads the setting on every request, so turning it off applies at once', async () => {
      const url = files.serve('/cat.png', { body: PNG });
      expect((await fetcher.get(url, { signal })).status).toBe(200);

      allowed = false;

      expect(await refusal(fetcher, url)).toMatch(/loopback/);
      expect(fetcher.localFilesAllowed()).toBe(false);
    });

    it('still fetches only http(s)', async () => {
      expect(await refusal(fetcher, 'file:///etc/passwd')).toMatch(/only http\(s\)/);
    });
  });

  describe('with an injected fetch', () => {
    it('asks it for one hop at a time (redirect: manual) and checks every hop', async () => {
      const seen: Array<{ url: string; redirect: RequestInit['redirect'] }> = [];
      const recording: typeof fetch = (input, init) => {
        seen.push({ url: String(input), redirect: init?.redirect });
        return fetch(input, init);
      };
      const fetcher = new MediaFetcher({ allowPrivateAddresses: () => false, refuseAddress: loopbackIsPublic, fetch: recording });
      const url = files.redirect('/go', 'http://10.0.0.1/secret');

      expect(await refusal(fetcher, url)).toMatch(/redirect 1 .*10\.0\.0\.1/);
      expect(seen).toEqual([{ url, redirect: 'manual' }]);
    });
  });
});
