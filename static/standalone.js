// Mounts the explorer in a page with no server: a plain object stands in for the Panel model.
// The exported file's script: esbuild bundles it with the client into app/standalone.bundle.js
// (scripts/bundle.py), which app/export.py packs into the file and static/loader.js starts.
import { inflate } from "./explorer/cube.js";
import { render } from "./explorer/explorer.js";
import { createOfflineRoom } from "./explorer/room_offline.js";
import { startScorm } from "./explorer/scorm.js";

function standaloneModel(state) {
  const listeners = new Map();
  const model = {
    on(names, callback) {
      for (const name of [].concat(names)) {
        if (!listeners.has(name)) listeners.set(name, []);
        listeners.get(name).push(callback);
      }
    },
    off() {},
    send_msg() {},  // nothing to send to: the lab's Python parts are hidden (lab = false)
  };
  for (const [name, initial] of Object.entries(state)) {
    let value = initial;
    Object.defineProperty(model, name, {
      enumerable: true,
      get: () => value,
      set: (next) => {
        if (next === value) return;
        value = next;
        for (const callback of listeners.get(name) || []) callback();
      },
    });
  }
  return model;
}

// The state as app/export.py wrote it: each value it stored once in `shared` ({"$shared": i} where
// it was) put back, as one JavaScript value wherever it was (nothing in the page changes an entry).
function unshare({state, shared}) {
  const made = new Map();
  const restore = (value) => {
    if (Array.isArray(value)) return value.map(restore);
    if (value === null || typeof value !== "object") return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$shared") {
      const index = value.$shared;
      if (!made.has(index)) made.set(index, restore(shared[index]));
      return made.get(index);
    }
    return Object.fromEntries(keys.map((key) => [key, restore(value[key])]));
  };
  return restore(state);
}

// The ae-state element as app/export.py packed it: {packed, blobs}, the packed part the JSON of
// {state, shared, css} deflated and base64-encoded, each cube's blob apart ({"$blob": j} where it was).
async function unpack({packed, blobs}) {
  const text = new TextDecoder().decode(await inflate(packed));
  const put = (value) => {
    if (Array.isArray(value)) return value.map(put);
    if (value === null || typeof value !== "object") return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$blob") return blobs[value.$blob];
    return Object.fromEntries(keys.map((key) => [key, put(value[key])]));
  };
  return put(JSON.parse(text));
}

// Draws the explorer into `host` from the ae-state element's value as app/export.py packed it
// (static/loader.js calls this once it has inflated this script). Rejects where it cannot inflate.
export async function start(host, packed) {
  const found = await unpack(packed);
  const state = unshare(found);
  const shadow = host.attachShadow({mode: "open"});
  const style = document.createElement("style");
  style.textContent = found.css;
  const el = document.createElement("div");
  shadow.append(style, el);
  el.append(render({model: standaloneModel(state), el}, {createRoom: createOfflineRoom, startScorm}));
}
