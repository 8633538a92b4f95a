// A lesson as a link: its file's text, deflated and written in base64url after "~" in the link's
// lesson= (a served page sends the text to Python, which reads and checks it as `lesson check`
// does: app/view_requests.py Requests.lesson). The browser's own CompressionStream does the work.

const MARK = "~";

async function through(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

// lesson= for `text`: "~" then the deflated UTF-8, in base64url.
export async function encodeLesson(text) {
  const packed = await through(new TextEncoder().encode(text), new CompressionStream("deflate-raw"));
  let binary = "";
  for (const byte of packed) binary += String.fromCharCode(byte);
  return MARK + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// Whether lesson= carries a lesson's text (not a name).
export const carriesText = (value) => typeof value === "string" && value.startsWith(MARK);

// The text a lesson= made by encodeLesson carries; rejects for anything else (a cut link).
export async function decodeLesson(value) {
  const base64 = value.slice(MARK.length).replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", {fatal: true}).decode(await through(bytes, new DecompressionStream("deflate-raw")));
}
