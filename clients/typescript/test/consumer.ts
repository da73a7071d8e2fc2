// A TypeScript program using the package, type-checked by `tsc` (npm run check) and never run:
// the events, answers, views and moves a client sees are typed from the wire schema.
import { Client } from '../src/index.js';
import type { LegalMove, ServerMessage, View } from '../src/wire';

declare const WebSocketImpl: import('../src/types').SocketConstructor;

export async function playOneMove(url: string): Promise<number | null> {
  const client = new Client(url, { WebSocket: WebSocketImpl, clientName: 'example/1' });
  client.on('status', ({ state }) => {
    const s: 'connecting' | 'open' | 'closed' = state;
    void s;
  });
  client.on('view', ({ events, snapshot }) => {
    for (const e of events) if (e.type === 'tile_placed') void e.x;
    void snapshot;
  });
  client.on('chat', (m) => void m.text.length);
  client.on('error', (m) => void m.code.toUpperCase());
  client.connect();
  const created: ServerMessage = await client.createRoom({ seats: 2, setup: { expansions: ['hills_and_sheep'] } });
  if (created.type !== 'room_created') return null;
  const joined = await client.join(created.room, { name: 'Ann' });
  if (joined.type === 'joined') void joined.seat.toFixed();
  const view: View | null = client.view;
  const legal: LegalMove[] = view?.game?.legal_moves ?? [];
  const first = legal[0];
  if (!first) return null;
  const answer = await client.move(first);
  return answer.type === 'move_accepted' ? answer.seq : null;
}

// Wrong shapes do not compile.
export function wrong(client: Client): void {
  // @ts-expect-error: a join needs a room
  void client.request({ type: 'join' });
  // @ts-expect-error: no such event
  client.on('nonsense', () => {});
  // @ts-expect-error: a move has a type
  void client.move({ seat: 0 });
  // @ts-expect-error: a view's events are events, not strings
  client.on('view', ({ events }) => events.push('tile_placed'));
}
