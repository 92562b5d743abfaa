// A QR code is printed only of an address another device can open; a loopback one gets the way to reach it.
import t from 'tap';
import { isLoopbackHost, phoneReach } from '../../../src/core/web/web-reach.js';

t.test('loopback names', async (t) => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', 'app.localhost', '[::1]', '::1'])
    t.ok(isLoopbackHost(host), host);
  for (const host of ['192.168.1.20', 'box.lan', 'host.tailnet.ts.net', '[fe80::1]', '10.0.0.1', '127.example.com'])
    t.notOk(isLoopbackHost(host), host);
});

t.test('a loopback URL: no QR code, the line with ssh -L and tailscale; another host: a QR code', async (t) => {
  t.equal(
    phoneReach('http://127.0.0.1:8740/login#abc'),
    'a phone cannot open 127.0.0.1: from another machine, ssh -L 8740:127.0.0.1:8740 this-host and open the URL there, or on this host tailscale serve --bg 8740 and restart with --public-host NAME --behind-proxy (docs/web.md)',
  );
  t.match(phoneReach('https://localhost/login#abc'), /ssh -L 443:127\.0\.0\.1:443/);
  t.match(phoneReach('http://[::1]:9000/login#abc'), /cannot open \[::1\]: .*ssh -L 9000:/);
  t.equal(phoneReach('https://host.tailnet.ts.net/login#abc'), null);
  t.equal(phoneReach('https://box.lan:8740/login#abc'), null);
  t.equal(phoneReach('http://192.168.1.20:8740/login#abc'), null);
});
