#!/usr/bin/env python3
# N event streams (GET /api/rooms/{id}/events) join one room of a server on loopback, one after
# the other as fast as they connect: the time until every one has its snapshot, then until one
# chat has reached them all (docs/performance.md "Many spectators"). Python's standard library
# only; one thread, so the readers are slower than the server: start the server with outbound
# limits raised (--max-outbound 100000 --max-outbound-bytes 1000000000) or it drops them.
#   tests/bench/spectators_join.py PORT N
# With several ports (PORT,PORT2,...: instances of one cluster, docs/scaling.md "Spectators on
# every instance") the room is made on the first and the streams go to each port in turn.
import asyncio, base64, json, os, socket, sys, time
PORTS = [int(p) for p in sys.argv[1].split(',')]; PORT = PORTS[0]; N = int(sys.argv[2])

def ws_frame(text):
    data = text.encode(); mask = os.urandom(4)
    head = bytes([0x81]) + (bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + len(data).to_bytes(2, 'big'))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))

async def ws_open():
    r, w = await asyncio.open_connection('127.0.0.1', PORT)
    key = base64.b64encode(os.urandom(16)).decode()
    w.write(f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    await r.readuntil(b"\r\n\r\n")
    return r, w

async def ws_read(r):
    h = await r.readexactly(2); n = h[1] & 0x7f
    if n == 126: n = int.from_bytes(await r.readexactly(2), 'big')
    elif n == 127: n = int.from_bytes(await r.readexactly(8), 'big')
    return json.loads(await r.readexactly(n))

async def ws_request(r, w, msg):
    w.write(ws_frame(json.dumps(msg)))
    while True:
        m = await ws_read(r)
        if m.get('id') == msg.get('id'): return m

async def stream(room, port, got_snapshot, got_chat):
    r, w = await asyncio.open_connection('127.0.0.1', port, limit=1 << 22)
    w.write(f"GET /api/rooms/{room}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await r.readuntil(b"\r\n\r\n")
    snap = False
    while True:
        block = await r.readuntil(b"\n\n")
        if block.startswith(b"event: snapshot") and not snap:
            snap = True; got_snapshot()
        if block.startswith(b"event: chat"):
            got_chat(); break
    w.close()

async def main():
    r, w = await ws_open()
    room = (await ws_request(r, w, {"type": "create_room", "id": 1, "seats": 2, "moved": True}))["room"]
    await ws_request(r, w, {"type": "join", "id": 2, "room": room, "name": "A"})
    snaps = 0; chats = 0
    done_snap = asyncio.Event(); done_chat = asyncio.Event()
    def s():
        nonlocal snaps; snaps += 1
        if snaps == N: done_snap.set()
    def c():
        nonlocal chats; chats += 1
        if chats == N: done_chat.set()
    t0 = time.time()
    tasks = []
    for i in range(N):
        tasks.append(asyncio.create_task(stream(room, PORTS[i % len(PORTS)], s, c)))
        if i % 200 == 199: await asyncio.sleep(0)
    await asyncio.wait_for(done_snap.wait(), 300)
    t1 = time.time()
    # drain A's frames meanwhile is not needed: A's queue may overflow; use a fresh request
    w.write(ws_frame(json.dumps({"type": "chat", "id": 3, "text": "hi"})))
    await asyncio.wait_for(done_chat.wait(), 120)
    t2 = time.time()
    print(f"{N} streams: all snapshots in {t1-t0:.2f} s, one chat to all in {t2-t1:.3f} s")

asyncio.run(main())
