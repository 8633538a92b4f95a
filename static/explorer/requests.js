// Requests to Python and their replies (app/protocol.py). Each request carries an id; Python answers
// each once, {id, type, ok, entries, view} or {id, type, ok: false, error}. One table holds the
// pending requests; a request belongs to a slot ("own" for the student's sentence or numbers, one
// per model head, …) and a reply to a request that a newer one of its slot superseded is dropped.

// `message` ({type, …}) with each field of its type that is a view param (`fields`: constants.requests,
// app/protocol.py FROM_VIEW) and that it does not carry, filled with the view (`state`) as it is now:
// a request carries all it needs, so Python never reads a view that has not reached it yet
// (app/protocol.py with_view, the same rule).
export function withView(message, fields, state) {
  const filled = {};
  for (const name of fields[message.type] || []) if (!(name in message)) filled[name] = state[name];
  return {...filled, ...message};
}

// `complete(message)`: the message as it goes (withView).
export function createRequests(model, {complete = (message) => message} = {}) {
  // Python sends a reply to every drawing of the same view (a notebook can show one twice): ids
  // start with a mark of this drawing, so each takes only its own
  const mark = Math.random().toString(36).slice(2, 10);
  let last = 0;
  const pending = new Map();  // id → {slot, resolve}
  const latest = new Map();   // slot → the id of its newest request
  const listeners = new Set();
  const changed = () => { for (const listener of listeners) listener(); };
  model.on("msg:custom", (reply) => {
    if (!reply || typeof reply !== "object" || !pending.has(reply.id)) return;  // not ours, or answered
    const {slot, type, resolve} = pending.get(reply.id);
    if (reply.type !== type) return;  // not the reply to this request
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
      const id = `${mark}:${++last}`;
      latest.set(slot, id);
      const reply = new Promise((resolve) => pending.set(id, {slot, type: message.type, resolve}));
      model.send_msg({...complete(message), id});
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
