// Mounts the explorer in a page with no server: a plain object stands in for the Panel model.
// Appended after the assembled client (app/client.py) in one inline module by app/export.py.
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
  const text = new TextDecoder().decode(await __modules["cube.js"].inflate(packed));
  const put = (value) => {
    if (Array.isArray(value)) return value.map(put);
    if (value === null || typeof value !== "object") return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$blob") return blobs[value.$blob];
    return Object.fromEntries(keys.map((key) => [key, put(value[key])]));
  };
  return put(JSON.parse(text));
}

// Where the page cannot inflate its state (a browser without DecompressionStream): the title and
// why nothing is drawn, in the link's language or the file's, from the words kept outside the pack.
function unpackFailed(host, fallback, error) {
  const asked = new URLSearchParams(window.location.search).get("lang");
  const lang = asked in fallback ? asked : document.documentElement.lang in fallback ? document.documentElement.lang
    : Object.keys(fallback)[0];
  const words = fallback[lang];
  const title = document.createElement("h1");
  title.textContent = words.app_title;
  const message = document.createElement("p");
  message.setAttribute("role", "alert");
  message.dataset.testid = "notices";
  message.textContent = words.err_decode.replace("{error}", error.message);
  host.append(title, message);
}

{
  const host = document.getElementById("ae-app");
  const packed = JSON.parse(document.getElementById("ae-state").textContent);
  let found = null;
  try {
    found = await unpack(packed);
  } catch (error) {
    unpackFailed(host, packed.fallback, error);
  }
  if (found) {
    const state = unshare(found);
    const shadow = host.attachShadow({mode: "open"});
    const style = document.createElement("style");
    style.textContent = found.css;
    const el = document.createElement("div");
    shadow.append(style, el);
    el.append(render({model: standaloneModel(state), el}));
  }
}
