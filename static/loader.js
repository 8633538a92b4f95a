// An exported file's inline script (app/export.py): the explorer's script travels deflated in the
// ae-state element beside the packed state, so this inflates it, runs it as a module from a blob:
// URL and starts it (static/standalone.js's `start`). Nothing else is in the clear. A file made
// with `export --csp-safe` carries the script as a plain inline module before this one instead
// (for a site whose Content-Security-Policy allows inline scripts but not blob: ones), which
// leaves its `start` at INLINE_START.

const INLINE_START = "__attentionExplorerStart";

// Where the page cannot inflate (no DecompressionStream) or start: the title and why nothing is
// drawn, in the link's language or the file's, from the words kept outside the pack. A script
// the site's Content-Security-Policy blocked: what the host must allow, in every language the
// file carries (the page's first: whoever reads it may be the site's administrator).
function unpackFailed(host, fallback, error, blocked) {
  const asked = new URLSearchParams(window.location.search).get("lang");
  const lang = asked in fallback ? asked : document.documentElement.lang in fallback ? document.documentElement.lang
    : Object.keys(fallback)[0];
  const title = document.createElement("h1");
  title.textContent = fallback[lang].app_title;
  const message = document.createElement("p");
  message.setAttribute("role", "alert");
  message.dataset.testid = "notices";
  message.textContent = blocked ? [lang, ...Object.keys(fallback).filter((code) => code !== lang)]
    .map((code) => fallback[code].err_csp_blob).join(" ") : fallback[lang].err_decode.replace("{error}", error.message);
  host.append(title, message);
}

{
  const host = document.getElementById("ae-app");
  const packed = JSON.parse(document.getElementById("ae-state").textContent);
  let blocked = false;  // a script from a blob: URL refused by the site's Content-Security-Policy
  document.addEventListener("securitypolicyviolation", (event) => {
    if (String(event.blockedURI).startsWith("blob")) blocked = true;
  });
  try {
    let start = window[INLINE_START];
    if (!start) {
      if (typeof DecompressionStream === "undefined") throw new Error("this browser has no DecompressionStream");
      const bytes = Uint8Array.from(atob(packed.script), (letter) => letter.charCodeAt(0));  // zlib, as app/export.py deflated it
      const script = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"))).text();
      ({start} = await import(URL.createObjectURL(new Blob([script], {type: "text/javascript"}))));
    }
    await start(host, packed);
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve, 0));  // the violation's event, queued beside the refusal
    unpackFailed(host, packed.fallback, error, blocked);
  }
}
