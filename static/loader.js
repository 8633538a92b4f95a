// An exported file's only inline script (app/export.py): the explorer's script travels deflated in
// the ae-state element beside the packed state, so this inflates it, runs it as a module from a
// blob: URL and starts it (static/standalone.js's `start`). Nothing else is in the clear.

// Where the page cannot inflate (no DecompressionStream) or start: the title and why nothing is
// drawn, in the link's language or the file's, from the words kept outside the pack.
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
  try {
    if (typeof DecompressionStream === "undefined") throw new Error("this browser has no DecompressionStream");
    const bytes = Uint8Array.from(atob(packed.script), (letter) => letter.charCodeAt(0));  // zlib, as app/export.py deflated it
    const script = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"))).text();
    const {start} = await import(URL.createObjectURL(new Blob([script], {type: "text/javascript"})));
    await start(host, packed);
  } catch (error) {
    unpackFailed(host, packed.fallback, error);
  }
}
