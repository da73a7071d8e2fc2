// A fake WebSocket and a fake clock for the unit tests: the test plays the server, frame by
// frame, and moves time by hand (no sleeps).

export class FakeSocket {
  /** @type {FakeSocket[]} */
  static all = [];
  static last() { return FakeSocket.all[FakeSocket.all.length - 1]; }

  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.onopen = null;
    this.onmessage = null;
    this.onclose = null;
    FakeSocket.all.push(this);
  }

  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.drop(); }

  // Test side.
  open() { this.readyState = 1; this.onopen?.(); }
  deliver(frame) { this.onmessage?.({ data: JSON.stringify(frame) }); }
  drop() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    const onclose = this.onclose;
    queueMicrotask(() => onclose?.());
  }
  lastSent() { return this.sent[this.sent.length - 1]; }
}

export class FakeClock {
  constructor() { this.time = 0; this.timers = []; this.nextId = 1; }
  setTimeout(fn, ms) { const id = this.nextId++; this.timers.push({ id, at: this.time + ms, fn }); return id; }
  clearTimeout(id) { this.timers = this.timers.filter((t) => t.id !== id); }
  now() { return this.time; }
  // Runs every timer due within `ms`, in time order.
  async advance(ms) {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
      await settle();
    }
    this.time = end;
  }
}

// Lets every promise chain started so far run to its next wait.
export const settle = () => new Promise((resolve) => setImmediate(resolve));

export const WELCOME = { type: 'welcome', protocol: 1, server: 'fake', limits: { max_message_bytes: 65536, message_rate: 20, message_burst: 40 } };

// Opens `socket` and answers its hello.
export async function welcome(socket) {
  socket.open();
  await settle();
  const hello = socket.lastSent();
  if (hello?.type !== 'hello') throw new Error(`expected hello, got ${JSON.stringify(hello)}`);
  socket.deliver({ ...WELCOME, id: hello.id });
  await settle();
}
