// An outside bot (docs/protocol.md "Outside bots") built on the package: it signs in as a bot
// account by its API token, creates a rated room (or joins one), and plays every decision it is
// given, a move chosen from the view's `legal_moves`, until the game ends. Its socket comes back
// by itself after a drop and takes its seat again (the package's reconnection: `resume`, signed
// in); a move whose answer was lost is sent again with its id and applied once.
//
//   node examples/bot.mjs --server http://HOST:PORT --register NAME --password PW
//       makes a bot account (a guest, its name claimed, then POST /api/me/bot) and prints its
//       token (keep it: the server shows it once)
//   node examples/bot.mjs --server http://HOST:PORT --token bot_… [--seats N] [--opponent LEVEL]
//       creates a rated room of N seats (2), with a server bot of LEVEL (random, greedy, strong)
//       on the other seats if given, else waits until people or bots fill them; starts it
//   node examples/bot.mjs --server http://HOST:PORT --token bot_… --room ID
//       joins room ID and plays there (its creator starts it)
//
// It prints one JSON line per step (`{"event":"room",…}`, then `{"event":"finished",…}`) and
// exits 0 once the game is over; 1 with a message on an error. Its token may also come in the
// environment (CARCASSONNE_BOT_TOKEN), out of the process list. The bot's parts are in
// outside_bot.mjs: a real bot passes its own `pick` to playGame (the example's is `choose`).
import { createRequire } from 'node:module';
import { playGame, registerBot } from './outside_bot.mjs';

/** @param {string[]} argv */
async function main(argv) {
  /** @type {Record<string, string>} */
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) throw new Error(`bad argument ${argv[i]}`);
    args[argv[i].slice(2)] = argv[i + 1];
  }
  const server = args.server ?? 'http://127.0.0.1:8080';
  const log = (/** @type {object} */ line) => console.log(JSON.stringify(line));
  if (args.register) {
    if (!args.password) throw new Error('--register NAME needs --password');
    const made = await registerBot(server, args.register, args.password);
    log({ event: 'registered', player: made.player, token: made.token });
    return;
  }
  const token = args.token ?? process.env.CARCASSONNE_BOT_TOKEN;
  if (!token) throw new Error('--token bot_… (or CARCASSONNE_BOT_TOKEN) is needed');
  // Node 20 has no global WebSocket: the `ws` package's (a peer dependency of the package).
  const WebSocket = globalThis.WebSocket ?? createRequire(import.meta.url)('ws');
  await playGame({
    server, token, WebSocket, log,
    ...(args.room ? { room: args.room } : {}),
    ...(args.seats ? { seats: Number(args.seats) } : {}),
    ...(args.opponent ? { opponent: args.opponent } : {}),
  });
}

main(process.argv.slice(2)).then(() => process.exit(0), (e) => {
  console.error(`bot: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});
