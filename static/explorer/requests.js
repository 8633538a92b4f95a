// Requests to Python and their replies (app/protocol.py). Each request carries an id; Python answers
// each once, {id, type, ok, entries, view} or {id, type, ok: false, error}. One table holds the
// pending requests; a request belongs to a slot ("own" for the student's sentence or numbers, one
// per model head, …) and a reply to a request that a newer one of its slot superseded is dropped.

export function createRequests(model) {
  let last = 0;
  const pending = new Map();  // id → {slot, resolve}
  const latest = new Map();   // slot → the id of its newest request
  const listeners = new Set();
  const changed = () => { for (const listener of listeners) listener(); };
  model.on("msg:custom", (reply) => {
    if (!reply || typeof reply !== "object" || !pending.has(reply.id)) return;  // not ours, or answered
    const {slot, resolve} = pending.get(reply.id);
    pending.delete(reply.id);
    const current = latest.get(slot) === reply.id;
    if (current) latest.delete(slot);
    if (current) resolve(reply);  // a superseded request's promise never settles: nothing acts on it
    changed();
  });
  return {
    // Send `message` ({type, …fields}) in `slot`; the promise resolves with the reply, unless a newer
    // request of the same slot is sent first.
    /** @returns {Promise<import("./entries").Reply>} */
    ask(slot, message) {
      const id = ++last;
      latest.set(slot, id);
      const reply = new Promise((resolve) => pending.set(id, {slot, resolve}));
      model.send_msg({...message, id});
      changed();
      return reply;
    },
    // Whether a request of `slot` is waiting for its reply.
    waiting(slot) { return latest.has(slot); },
    // Whether any request is waiting.
    busy() { return latest.size > 0; },
    onChange(listener) { listeners.add(listener); },
  };
}
