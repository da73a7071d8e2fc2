#!/usr/bin/env node
// Browser test of OpenID Connect sign-in on the page (account_panel.js's "Sign in with HOST",
// account.js, main.js's /#signin-error=CODE; docs/web.md "Accounts"), in Debian's Chromium driven
// by playwright-core, run by run_web_test.sh like web_test.mjs:
//
//   node tests/web/oidc_web_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// The server run_web_test.sh started has no OpenID Connect: its page shows no provider link.
// This test starts a minimal provider of its own (node:http and node:crypto: discovery, JWKS, an
// authorization endpoint that approves at once, or refuses when told to, and a token endpoint
// that checks the client, the code and the PKCE verifier and signs an RS256 ID token) and a
// second server using it. Ada's page offers "Sign in with 127.0.0.1:PORT"; the link takes the
// browser to the provider and back, signed in as "Grace" (the provider's preferred_username),
// the WebSocket too. Signed out, she tries again and says no at the provider: the page comes
// back to the lobby with a notice saying the sign-in was cancelled. Exit 0 on success.
import { spawn } from 'node:child_process';
import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webTest } from './harness.mjs';

const t = webTest('oidc_web_test');
const { base, binary, artifacts, step } = t;
const CLIENT = 'carcassonne', SECRET = 's3cret';

const b64url = (buf) => Buffer.from(buf).toString('base64url');

// The provider: one RSA key, codes kept until used once.
function startProvider() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };
  const grants = new Map();
  const provider = { deny: false, issuer: '', tokens: 0 };
  const json = (res, status, body) => { res.writeHead(status, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(body)); };
  const sign = (claims) => {
    const input = `${b64url(JSON.stringify({ alg: 'RS256', kid: 'k1', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
    return `${input}.${b64url(createSign('RSA-SHA256').update(input).sign(privateKey))}`;
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url, provider.issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, { issuer: provider.issuer, authorization_endpoint: `${provider.issuer}/authorize`, token_endpoint: `${provider.issuer}/token`, jwks_uri: `${provider.issuer}/jwks`, code_challenge_methods_supported: ['S256'] });
    }
    if (url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== CLIENT || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256') return json(res, 400, { error: 'invalid_request' });
      const back = new URL(q.get('redirect_uri'));
      back.searchParams.set('state', q.get('state'));
      if (provider.deny) {
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = b64url(randomBytes(16));
        grants.set(code, { challenge: q.get('code_challenge'), nonce: q.get('nonce'), redirect: q.get('redirect_uri') });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (req.headers.authorization !== `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`) return json(res, 401, { error: 'invalid_client' });
        const grant = grants.get(form.get('code'));
        grants.delete(form.get('code'));
        if (!grant || form.get('redirect_uri') !== grant.redirect || b64url(createHash('sha256').update(form.get('code_verifier') ?? '').digest()) !== grant.challenge)
          return json(res, 400, { error: 'invalid_grant' });
        const now = Math.floor(Date.now() / 1000);
        provider.tokens += 1;
        json(res, 200, { access_token: 'at', token_type: 'Bearer', id_token: sign({ iss: provider.issuer, aud: CLIENT, sub: 'user-7', nonce: grant.nonce, iat: now, exp: now + 300, preferred_username: 'Grace' }) });
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    provider.issuer = `http://127.0.0.1:${server.address().port}`;
    provider.close = () => server.close();
    resolve(provider);
  }));
}

function freePort() {
  return new Promise((resolve) => {
    const s = createTcpServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// A second server, with OpenID Connect sign-in at `issuer`; resolves once /healthz answers.
async function startServer(issuer) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'carcassonne-oidc-web-'));
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ['serve', '--address', '127.0.0.1', '--port', String(port), '--threads', '2', '--log-level', 'warn',
    '--data-dir', dir, '--oidc-issuer', issuer, '--oidc-client-id', CLIENT, '--oidc-client-secret', SECRET,
    '--oidc-redirect-uri', `${origin}/auth/oidc/callback`], { stdio: ['ignore', 'inherit', 'inherit'] });
  const stop = () => { child.kill('SIGTERM'); rmSync(dir, { recursive: true, force: true }); };
  for (let i = 0; i < 200; ++i) {
    if (child.exitCode !== null) throw new Error(`the OpenID Connect server exited with ${child.exitCode}`);
    const ok = await fetch(`${origin}/healthz`).then((r) => r.ok, () => false);
    if (ok) return { origin, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  stop();
  throw new Error('the OpenID Connect server did not answer /healthz');
}

const me = (page) => page.evaluate(() => ({ account: window.carcassonne.account.player, socket: window.carcassonne.conn.player }));

async function main() {
  // ---- The server without OpenID Connect: no provider link.
  const plain = await t.open('plain', { consoleErrors: true });
  await plain.goto(base);
  await plain.locator('#account-name', { hasText: /^Guest/ }).waitFor();
  if (await plain.locator('#sign-in-oidc').count()) throw new Error('a provider link on a server without OpenID Connect');
  step('no provider link without --oidc-issuer');

  const provider = await startProvider();
  const server = await startServer(provider.issuer);
  try {
    const ada = await t.open('ada', { consoleErrors: true });
    const shot = (name) => ada.screenshot({ path: join(artifacts, `oidc-${name}.png`), fullPage: true });
    await ada.goto(server.origin);
    await ada.locator('#account-name', { hasText: /^Guest/ }).waitFor();
    const guest = (await me(ada)).account;
    const link = ada.locator('#sign-in-oidc');
    const host = new URL(provider.issuer).host;
    if ((await link.textContent()) !== `Sign in with ${host}` || (await link.getAttribute('href')) !== '/auth/oidc/start')
      throw new Error(`the provider link: ${await link.textContent()} → ${await link.getAttribute('href')}`);
    await shot('01-guest');
    step(`the guest ${guest.name} is offered "Sign in with ${host}"`);

    // ---- To the provider and back: signed in as Grace, the connection too.
    await link.click();
    await ada.locator('#account-name', { hasText: 'Grace' }).waitFor();
    await ada.waitForFunction(() => window.carcassonne?.conn.player?.name === 'Grace');
    const grace = await me(ada);
    if (grace.account.guest || grace.account.id === guest.id || grace.socket.id !== grace.account.id)
      throw new Error(`after the provider: ${JSON.stringify(grace)}`);
    if (new URL(ada.url()).pathname !== '/' || provider.tokens !== 1) throw new Error(`back at ${ada.url()}, ${provider.tokens} tokens`);
    if (await ada.locator('#sign-in-oidc').count()) throw new Error('the provider link is still offered once signed in');
    await shot('02-signed-in');
    step(`signed in with the provider as Grace (${grace.account.id}), the WebSocket too`);

    // ---- Signed out, then the user says no at the provider: back to the lobby, told so.
    await ada.click('#sign-out');
    await ada.locator('#account-name', { hasText: /^Guest/ }).waitFor();
    provider.deny = true;
    await ada.locator('#sign-in-oidc').click();
    await ada.locator('#notices .notice.error', { hasText: 'The sign-in was cancelled at the provider.' }).waitFor();
    if (new URL(ada.url()).hash !== '') throw new Error(`the error stays in the address: ${ada.url()}`);
    await ada.locator('#account-name', { hasText: /^Guest/ }).waitFor();
    await shot('03-cancelled');
    step('a sign-in refused at the provider comes back to the lobby with a notice');

    // ---- Again, approved: the same player as before.
    provider.deny = false;
    await ada.locator('#sign-in-oidc').click();
    await ada.waitForFunction((id) => window.carcassonne?.conn.player?.id === id, grace.account.id);
    step('signing in with the provider again is the same player');
  } finally {
    server.stop();
    provider.close();
  }
}

t.run(main);
