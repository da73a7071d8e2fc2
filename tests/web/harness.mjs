// The start-up and the end that the browser scenarios (bots_test, fairness_test, match_web_test)
// share: the command line (BASE_URL CARCASSONNE_BINARY ARTIFACTS_DIR, as run_web_test.sh passes
// it), a timestamped step log, Debian's Chromium through playwright-core, pages that collect
// their errors, and the exit status (0 on success, 1 with the failure, 2 on a bad command line).
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { loadWireSchema } from '../schema/wire_schema.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

// Plays under `name` on a loaded page: the page's guest (docs/web.md "Accounts") claims it, as
// Sign up does; a page signed in by name already keeps its own. Resolves with the name played under.
export async function playAs(page, name) {
  await page.waitForFunction(() => window.carcassonne?.account?.player);
  return page.evaluate(async (n) => {
    const account = window.carcassonne.account;
    if (account.player.guest) await account.claim(n, `${n} plays the web tests`);
    return account.player.name;
  }, name);
}

// Controls of the game screen that read the same for different moves (the action bar's buttons,
// folded lists included; the board's circles), and moves with two buttons: {out: [problems], n}.
export function labelProblems(page) {
  return page.evaluate(() => {
    const out = [];
    const buttons = [...document.querySelectorAll('.actions button[data-move]')].map((b) => [b.textContent.trim(), b.dataset.move]);
    const circles = [...document.querySelectorAll('.layer-markers .marker:not(.marker-cluster)')].map((m) => [m.getAttribute('aria-label'), m.dataset.key]);
    for (const [controls, kind] of [[buttons, 'button'], [circles, 'circle']]) {
      const seen = new Map(), moves = new Set();
      for (const [label, move] of controls) {
        if (seen.has(label) && seen.get(label) !== move) out.push(`${kind}s "${label}" for ${seen.get(label)} and ${move}`);
        seen.set(label, move);
        if (moves.has(move)) out.push(`two ${kind}s for ${move}`);
        moves.add(move);
      }
    }
    return { out, n: buttons.length + circles.length };
  });
}

// Every WebSocket frame the page sends and receives, checked against the wire schema
// (docs/schema/): a frame that does not match is a page error (in `errors`).
const wire = loadWireSchema();
export function checkFrames(page, who, errors) {
  page.on('websocket', (ws) => {
    const check = (direction, payload) => {
      let frame;
      try { frame = JSON.parse(String(payload)); } catch { errors.push(`${who}: a ${direction} frame is not JSON`); return; }
      const bad = wire.check(direction, frame);
      if (bad) errors.push(`${who}: ${bad}: ${String(payload).slice(0, 300)}`);
    };
    ws.on('framesent', (f) => check('client', f.payload));
    ws.on('framereceived', (f) => check('server', f.payload));
  });
}

// Every button and link shown is at least 44 × 44 px, and the page is no wider than the phone;
// measured once the page is at rest (a sheet sliding open is measured where it ends).
export async function checkPhoneSizes(page, where) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const found = await page.evaluate(() => {
    const small = [...document.querySelectorAll('#app button, #app a, header button, #match-banner button')].filter((n) => n.offsetParent !== null)
      .map((n) => [n.textContent.trim(), n.getBoundingClientRect()])
      .filter(([, b]) => b.width < 44 || b.height < 44)
      .map(([text, b]) => `"${text}" ${Math.round(b.width)} × ${Math.round(b.height)}`);
    const wide = [...document.querySelectorAll('body *')].filter((n) => n.getBoundingClientRect().right > 390.2)
      .map((n) => `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}.${[...n.classList].join('.')} ${Math.round(n.getBoundingClientRect().right)}`).slice(0, 8);
    wide.push(...[...document.querySelectorAll('body, body *')].filter((n) => n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).overflowX !== 'hidden')
      .map((n) => `over:${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}.${[...n.classList].join('.')} ${n.scrollWidth}/${n.clientWidth}`).slice(0, 8));
    return { width: document.documentElement.scrollWidth, small, wide };
  });
  if (found.width > 390) throw new Error(`${where}: the page is ${found.width} px wide on a 390 px phone: ${found.wide.join(', ')}`);
  if (found.small.length) throw new Error(`${where}: under 44 × 44 px: ${found.small.join(', ')}`);
}

// name: the scenario's name, the prefix of its log lines.
export function webTest(name) {
  const [base, binary, artifacts] = process.argv.slice(2);
  if (!base || !binary || !artifacts) {
    console.error(`usage: ${name}.mjs BASE_URL CARCASSONNE_BINARY ARTIFACTS_DIR`);
    process.exit(2);
  }
  mkdirSync(artifacts, { recursive: true });
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  const errors = [];  // what the pages threw (and, where asked, logged as errors)
  let browser;
  return {
    base, binary, artifacts, errors,
    step: (text) => console.log(`${name}: ${seconds()} s: ${text}`),
    // A page in a context of its own. consoleErrors: console.error counts as a page error;
    // acceptDialogs: confirmations are answered yes; phone: 390 × 844, touch.
    async open(who, { consoleErrors = false, acceptDialogs = false, phone = false } = {}) {
      browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: FLAGS });
      const options = phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 800 } };
      const page = await (await browser.newContext(options)).newPage();
      page.setDefaultTimeout(15000);
      page.on('pageerror', (e) => errors.push(`${who}: ${e.message}`));
      checkFrames(page, who, errors);
      if (consoleErrors) page.on('console', (m) => { if (m.type() === 'error') errors.push(`${who} console: ${m.text()}`); });
      if (acceptDialogs) page.on('dialog', (d) => d.accept());
      return page;
    },
    // Runs the scenario, fails it on any page error, and exits.
    async run(main) {
      try {
        await main();
        if (errors.length) throw new Error(`errors in the pages:\n${errors.join('\n')}`);
        console.log(`${name}: ok in ${seconds()} s`);
        await browser?.close();
        process.exit(0);
      } catch (e) {
        console.error(`${name}: FAIL: ${e.stack ?? e}`);
        await browser?.close().catch(() => {});
        process.exit(1);
      }
    },
  };
}
