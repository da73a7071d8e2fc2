// @ts-check
// The example outside bot's parts (examples/bot.mjs is its command line): making a bot account,
// and playing one game as it through the package (docs/protocol.md "Outside bots"). It runs in
// Node (pass the `ws` package's WebSocket to Node 20) and in a browser alike.
import { Client } from '../src/index.js';

/** @typedef {import('../src/wire').View} View */
/** @typedef {import('../src/wire').Move} Move */

/**
 * The bot's policy: one of the listed legal moves (here at random). The list is exactly what the
 * server accepts now from this seat, so any of them is legal.
 * @param {View} view @returns {Move}
 */
export function choose(view) {
  const moves = view.game?.legal_moves ?? [];
  return /** @type {Move} */ (moves[Math.floor(Math.random() * moves.length)]);
}

/** http(s)://HOST:PORT from a ws(s)://HOST:PORT/ws or http(s) address. @param {string} server */
const httpBase = (server) => new URL(server.replace(/^ws/, 'http')).origin;
/** ws(s)://HOST:PORT/ws. @param {string} server */
const wsUrl = (server) => `${httpBase(server).replace(/^http/, 'ws')}/ws`;

/**
 * A POST of §23's routes; resolves with the status and the JSON answer.
 * @param {string} server @param {string} path @param {object} body @param {string} [bearer]
 */
async function post(server, path, body, bearer) {
  const r = await fetch(`${httpBase(server)}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: /** @type {any} */ (await r.json()) };
}

/**
 * Makes a bot account: a guest, its name claimed with a password, then made a bot's (for good).
 * @param {string} server @param {string} name @param {string} password
 * @returns {Promise<{ player: { id: string, name: string, guest: boolean, bot: boolean }, token: string }>}
 */
export async function registerBot(server, name, password) {
  const guest = await post(server, '/api/guest', {});
  if (guest.status !== 201) throw new Error(`POST /api/guest: ${JSON.stringify(guest.body)}`);
  const session = guest.body.session;
  const named = await post(server, '/api/me/name', { name, password }, session);
  if (named.status !== 200) throw new Error(`POST /api/me/name: ${JSON.stringify(named.body)}`);
  const bot = await post(server, '/api/me/bot', {}, session);
  if (bot.status !== 200) throw new Error(`POST /api/me/bot: ${JSON.stringify(bot.body)}`);
  return bot.body;
}

/**
 * Plays one game as the bot of `token`: in `room`, or in a new rated room of `seats` seats (with
 * server bots of `opponent` on the others when given). Resolves once the game is finished.
 * @param {{ server: string, token: string, room?: string, seats?: number, opponent?: string,
 *   WebSocket?: any, log?: (line: object) => void, pick?: (view: View) => Move }} options
 */
export async function playGame(options) {
  const { server, token, seats = 2, opponent, log = () => {}, pick = choose } = options;
  const client = new Client(wsUrl(server), {
    clientName: 'example-bot/1', session: token, ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
  });
  /** @type {(why: string) => never} */
  const fail = (why) => { client.close(); throw new Error(why); };
  const welcomed = new Promise((resolve) => { client.on('welcome', resolve); });
  client.connect();
  await welcomed;
  const me = await client.signedIn();
  if (!me) fail('the token was refused: is it the account\'s latest?');
  if (!me.bot) fail(`${me.name} is not a bot account`);

  let room = options.room;
  const creator = room === undefined;
  if (room === undefined) {
    const created = await client.createRoom({
      seats, rated: true, name: `${me.name}'s table`,
      ...(opponent ? { bots: [null, ...Array(seats - 1).fill(opponent)], bot_pause_ms: 0 } : {}),
    });
    if (created.type !== 'room_created') fail(`create_room: ${JSON.stringify(created)}`);
    room = created.room;
  }
  const joined = await client.join(room);
  if (joined.type !== 'joined') fail(`join: ${JSON.stringify(joined)}`);
  log({ event: 'room', room, seat: client.seat, player: me.id });

  return new Promise((resolve, reject) => {
    let busy = false;
    let starting = false;
    const done = (/** @type {unknown} */ error) => {
      client.close();
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
    };
    const step = async () => {
      const view = client.view;
      if (!view || busy) return;
      const game = view.game;
      if (!game) {
        // The creator starts once every seat is taken.
        if (creator && !starting && view.room.seats.every((s) => s.name !== null)) {
          starting = true;
          const started = await client.request({ type: 'start' });
          if (started.type !== 'started') done(`start: ${JSON.stringify(started)}`);
        }
        return;
      }
      if (game.status === 'finished') {
        const result = { event: 'finished', room, seat: game.viewer, scores: game.scores };
        log(result);
        client.close();
        resolve(result);
        return;
      }
      // Our decision: the view lists the legal moves only to the seat that must act.
      if (!Array.isArray(game.legal_moves) || !game.legal_moves.length || game.awaiting?.seat !== game.viewer) return;
      busy = true;
      try {
        const answer = await client.move(pick(view));
        // A view overtaken meanwhile (someone came back, a patch crossed the move): the next
        // view asks again. Anything else is a bug of the bot.
        if (answer.type === 'error' && answer.code !== 'stale_sequence') return done(`move refused: ${JSON.stringify(answer)}`);
      } catch (e) {
        return done(e);
      } finally {
        busy = false;
      }
      void step();
    };
    client.on('view', () => void step().catch(done));
    client.on('replaced', () => done('another connection took the seat'));
    client.on('membership', (m) => { if (m.type === 'refused') done(`the room refused us: ${m.code}`); });
    void step().catch(done);
  });
}
