// The modules the first screen and the modules it loads on first use share. Each module loaded on
// first use imports this one, so that esbuild puts all of them in one chunk (it makes a chunk for
// each set of entries that reach a module: without this, a chunk each, and each chunk is a request
// of the first load: bench/first_load.py). It has no code of its own.
import "./dom.js";
import "./format.js";
import "./source.js";
import "./room_kept.js";
import "./cube.js";
import "./snapshot.js";
import "./lines.js";
import "./captions.js";
import "./url.js";
import "./calculation.js";
import "./bars.js";
import "./url_writer.js";
